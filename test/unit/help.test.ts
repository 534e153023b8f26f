import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { examplesOf, notesOf } from '../../src/cli/help.js';
import { overview } from '../../src/cli/overview.js';
import { buildProgram } from '../../src/cli/program.js';
import { agentctl } from '../helpers/cli.js';

const FULL_PROGRAM = await buildProgram([]);

/** Every command of the full tree with its path, root first. */
function walk(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  const here = { path: ['agentctl', ...path].join(' '), command };
  return [here, ...command.commands.flatMap((sub) => walk(sub, [...path, sub.name()]))];
}

/** A command's whole --help page, as commander prints it into a pipe. */
function helpPage(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), getOutHelpWidth: () => 80, getOutHasColors: () => false });
  command.outputHelp();
  return text;
}

/** The codes of a page's "Exit codes:" table. */
function exitCodeTable(page: string): number[] {
  const table = /\nExit codes:\n((?: {2}\d+ .*\n?(?: {6,}.*\n?)*)+)/.exec(page)?.[1] ?? '';
  return [...table.matchAll(/^ {2}(\d+) /gm)].map((match) => Number(match[1]));
}

/** What a command's help says in words: its summary, notes, arguments, options and the comments of its examples. */
function proseOf(command: Command): string {
  return [
    command.description(),
    notesOf(command) ?? '',
    ...command.registeredArguments.map((argument) => argument.description),
    ...command.options.map((option) => option.description),
    ...examplesOf(command).map((line) => / #\s(.*)$/.exec(line)?.[1] ?? ''),
  ].join('\n');
}

/**
 * The exit codes a text names: "exit 7", "exits 2", "exit 8 (unreachable) or 1", "exit 0 completed,
 * 5 failed, 6 cancelled", "worst first: 3, 8, 1", and in an example's comment "0 completed, 5 failed".
 */
function namedExitCodes(text: string): number[] {
  const codes: number[] = [];
  for (const match of text.matchAll(/\bexit(?:s| code is[^:.;]*:)?\s+(\d+)([^.;]*)/gi)) {
    codes.push(Number(match[1]));
    for (const item of (match[2] as string).matchAll(/(?:,\s*|\bor\s+|\/)(\d{1,3})\b/g)) codes.push(Number(item[1]));
  }
  for (const match of text.matchAll(/\b(\d{1,3}) (?:completed|failed|cancelled|timed out)\b/g)) codes.push(Number(match[1]));
  return [...new Set(codes)];
}

describe('help for every command', () => {
  // The full tree: await buildProgram(argv) defines only the named command's subtree.
  const commands = walk(FULL_PROGRAM);

  it('has a one-line summary and at least one example a user can paste', () => {
    const offenders = commands.flatMap(({ path, command }) => {
      const problems: string[] = [];
      const description = command.description().trim();
      if (description === '') problems.push('no description (.description(...))');
      else if (description.split('\n')[0]!.length > 140) problems.push('summary line longer than 140 characters');
      const examples = examplesOf(command);
      if (examples.length === 0) problems.push('no example (wrap the definition in examples(command, [...]) from src/cli/help.ts)');
      for (const example of examples) if (!example.includes('agentctl')) problems.push(`example without agentctl: ${example}`);
      return problems.map((problem) => `${path}: ${problem}`);
    });
    expect(offenders, `commands with incomplete help:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('describes every argument and option', () => {
    const offenders = commands.flatMap(({ path, command }) => [
      ...command.registeredArguments.filter((argument) => !argument.description).map((argument) => `${path}: argument <${argument.name()}> has no description`),
      ...command.options.filter((option) => !option.description).map((option) => `${path}: option ${option.flags} has no description`),
    ]);
    expect(offenders, `undescribed arguments and options:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('lists the exit codes of every command', () => {
    const offenders = commands.filter(({ command }) => !/\nExit codes:\n {2}0 +\S/.test(helpPage(command))).map(({ path }) => path);
    expect(offenders, `help without exit codes:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('has one list of exit codes, holding every code its help names', () => {
    const offenders = commands.flatMap(({ path, command }) => {
      const page = helpPage(command);
      const listed = new Set(exitCodeTable(page));
      const problems = page.split('\nExit codes:\n').length === 2 && !/exit codes:/i.test(notesOf(command) ?? '') ? [] : [`${path}: more than one list of exit codes`];
      for (const code of namedExitCodes(proseOf(command))) if (!listed.has(code)) problems.push(`${path}: its help names exit ${code}, its list of exit codes does not`);
      return problems;
    });
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('shows defaults and allowed values in --help', async () => {
    const program = await buildProgram(['tasks']);
    const list = program.commands.find((command) => command.name() === 'tasks')!.commands.find((command) => command.name() === 'list')!;
    expect(list.helpInformation().replace(/\s+/g, ' ')).toContain('(choices: "pending", "in_progress", "completed", "failed", "cancelled")');
    const emulator = (await buildProgram(['emulator'])).commands.find((command) => command.name() === 'emulator')!;
    expect(emulator.helpInformation().replace(/\s+/g, ' ')).toContain('(default: "8787")');
  });
});

describe('the overview (agentctl alone)', () => {
  it('has one entry per noun, with the verbs of each noun', async () => {
    const program = await buildProgram([]);
    const text = overview(program);
    for (const noun of program.commands) {
      expect(text).toMatch(new RegExp(`^  ${noun.name()} +\\S`, 'm'));
      if (noun.commands.length > 0) expect(text).toContain(noun.commands.map((verb) => verb.name()).join(' · '));
    }
    expect(text).toContain('Examples:');
  });

  it('fits the terminal width when given one', async () => {
    const text = overview(await buildProgram([]), 60);
    for (const line of text.split('\n').filter((line) => line.startsWith('  ') && !line.includes('agentctl'))) expect(line.length).toBeLessThanOrEqual(60);
  });
});

/** The lines of `text` wider than `width` that could have been broken: more than one word (a quoted string is one). */
function overflowing(text: string, width: number): string[] {
  const words = (line: string) => line.trim().replace(/ \\$/, '').match(/(?:"[^"]*"|'[^']*'|\S)+/g) ?? [];
  return text.split('\n').filter((line) => line.length > width && words(line).length > 1);
}

/** The examples of a help page as a shell reads them: continuation lines joined, comment lines dropped. */
function examplesAsTyped(page: string): string[] {
  const section = /\nExamples:\n([\s\S]*?)(?:\n\n|$)/.exec(page)?.[1] ?? '';
  return section
    .replace(/ \\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .map((line) => line.trim().replace(/\s+/g, ' '));
}

describe.each([80, 40])('help at %i columns (in-process)', (width) => {
  const terminal = { stdoutIsTTY: true, columns: width };
  const env = { NO_COLOR: '1' }; // the text as laid out, without colour codes in its width

  it('wraps every page to the width, descriptions under their terms when narrow, examples still pasteable', async () => {
    const offenders: string[] = [];
    for (const { path, command } of walk(FULL_PROGRAM)) {
      const page = (await agentctl([...path.split(' ').slice(1), '--help'], { terminal, env })).stdout;
      offenders.push(...overflowing(page, width).map((line) => `${path}: ${line}`));
      // Each example, wrapped or not, is the same command once the shell has joined its lines.
      const typed = examplesAsTyped(page);
      for (const example of examplesOf(command)) {
        const code = example.replace(/\s+#\s.*$/, '').replace(/\s+/g, ' ');
        if (!typed.some((line) => line.startsWith(code))) offenders.push(`${path}: example not pasteable as shown: ${example}`);
      }
    }
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('wraps `agentctl` alone to the width, cutting nothing', async () => {
    const text = (await agentctl([], { terminal, env })).stdout;
    expect(text).not.toContain('…');
    expect(overflowing(text, width)).toEqual([]);
    // Every noun's summary is there whole (wrapped lines joined).
    const joined = text.replace(/\n\s+/g, ' ');
    for (const noun of FULL_PROGRAM.commands) expect(joined).toContain(noun.description().split('\n')[0]!.replace(/\s+/g, ' '));
  });
});
