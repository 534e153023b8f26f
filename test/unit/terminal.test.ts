import { describe, expect, it } from 'vitest';
import { decideTerminal, terminalOf, type Terminal } from '../../src/output/terminal.js';

const tty: Terminal = { stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true, columns: 80, rows: 24 };
const pipe: Terminal = { stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
const errOnly: Terminal = { ...pipe, stderrIsTTY: true, columns: 80 };

type Env = Record<string, string | undefined>;

describe('decideTerminal', () => {
  // env and stream facts in, the colour of stdout and of stderr out
  const colours: Array<[string, Env, Terminal, boolean, boolean]> = [
    ['a terminal', {}, tty, true, true],
    ['a pipe', {}, pipe, false, false],
    ['stdout piped, stderr a terminal', {}, errOnly, false, true],
    ['NO_COLOR', { NO_COLOR: '1' }, tty, false, false],
    ['an empty NO_COLOR (no-color.org: ignored)', { NO_COLOR: '' }, tty, true, true],
    ['NO_COLOR beats FORCE_COLOR', { NO_COLOR: '1', FORCE_COLOR: '1' }, tty, false, false],
    ['FORCE_COLOR into a pipe', { FORCE_COLOR: '1' }, pipe, true, true],
    ['FORCE_COLOR=0 at a terminal', { FORCE_COLOR: '0' }, tty, false, false],
    ['FORCE_COLOR=false', { FORCE_COLOR: 'false' }, tty, false, false],
    ['FORCE_COLOR beats TERM=dumb', { FORCE_COLOR: '1', TERM: 'dumb' }, tty, true, true],
    ['TERM=dumb', { TERM: 'dumb' }, tty, false, false],
  ];
  it.each(colours)('colour: %s', (_name, env, facts, stdout, stderr) => {
    const terminal = decideTerminal(env, facts);
    expect([terminal.colour('stdout'), terminal.colour('stderr')]).toEqual([stdout, stderr]);
  });

  // interactive (spinners), progress (batch line), canAsk (confirm), pages (pager)
  const people: Array<[string, Env, Terminal, { interactive: boolean; progress: boolean; canAsk: boolean; pages: boolean }]> = [
    ['a terminal', {}, tty, { interactive: true, progress: true, canAsk: true, pages: true }],
    ['a pipe', {}, pipe, { interactive: false, progress: false, canAsk: false, pages: false }],
    ['CI=true', { CI: 'true' }, tty, { interactive: false, progress: false, canAsk: false, pages: true }],
    ['CI=0', { CI: '0' }, tty, { interactive: true, progress: true, canAsk: true, pages: true }],
    ['CI=false', { CI: 'false' }, tty, { interactive: true, progress: true, canAsk: true, pages: true }],
    ['TERM=dumb', { TERM: 'dumb' }, tty, { interactive: false, progress: false, canAsk: true, pages: true }],
    ['stdout piped', {}, { ...tty, stdoutIsTTY: false }, { interactive: false, progress: true, canAsk: true, pages: false }],
    ['stdin piped', {}, { ...tty, stdinIsTTY: false }, { interactive: true, progress: true, canAsk: false, pages: true }],
    ['a terminal with no height', {}, { ...tty, rows: 0 }, { interactive: true, progress: true, canAsk: true, pages: false }],
  ];
  it.each(people)('spinner, progress, prompts and pager: %s', (_name, env, facts, expected) => {
    const { interactive, progress, canAsk, pages } = decideTerminal(env, facts);
    expect({ interactive, progress, canAsk, pages }).toEqual(expected);
  });

  const widths: Array<[string, Env, Terminal, number]> = [
    ['the terminal', { COLUMNS: '60' }, tty, 80],
    ['$COLUMNS when the terminal says 0', { COLUMNS: '90' }, { ...tty, columns: 0 }, 90],
    ['100 for a nonsense $COLUMNS', { COLUMNS: 'wide' }, { ...tty, columns: 0 }, 100],
    ['100 for a tiny terminal', {}, { ...tty, columns: 12 }, 100],
    ['100 into a pipe', {}, pipe, 100],
  ];
  it.each(widths)('width: %s', (_name, env, facts, width) => {
    expect(decideTerminal(env, facts).width).toBe(width);
  });

  it('wraps help to the terminal on a terminal stream only, and reads the width live', () => {
    const facts = { ...errOnly };
    const terminal = decideTerminal({}, facts);
    expect([terminal.helpWidth('stdout'), terminal.helpWidth('stderr')]).toEqual([undefined, 80]);
    facts.columns = 120; // a resize
    expect(terminal.helpWidth('stderr')).toBe(120);
  });

  it('uses the pre-rendered help pages only where commander would print the same: a pipe without colour', () => {
    expect(decideTerminal({}, pipe).plainHelp).toBe(true);
    expect(decideTerminal({ FORCE_COLOR: '0' }, pipe).plainHelp).toBe(true);
    expect(decideTerminal({ FORCE_COLOR: '1' }, pipe).plainHelp).toBe(false);
    expect(decideTerminal({ NO_COLOR: '1' }, tty).plainHelp).toBe(false);
  });

  it('is built once per run', () => {
    const io = { env: {}, terminal: tty };
    expect(terminalOf(io)).toBe(terminalOf(io));
  });
});
