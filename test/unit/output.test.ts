import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/output/output.js';
import { decideOutput, type Terminal } from '../../src/output/settings.js';
import { renderTable } from '../../src/output/table.js';
import { frameRows, overFrame } from '../../src/output/frame.js';

const tty: Terminal = { stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true, columns: 80 };
const pipe: Terminal = { stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };

function capture(flags: Parameters<typeof decideOutput>[0], terminal: Terminal) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += String(chunk)));
  stderr.on('data', (chunk) => (err += String(chunk)));
  const output = new Output(decideOutput(flags, {}, terminal), { stdout, stderr });
  return { output, out: () => out, err: () => err };
}

describe('decideOutput', () => {
  it('uses colour only on a terminal, never with NO_COLOR, --no-color or JSON', () => {
    expect(decideOutput({}, {}, tty).color).toBe(true);
    expect(decideOutput({}, {}, pipe).color).toBe(false);
    expect(decideOutput({}, { NO_COLOR: '1' }, tty).color).toBe(false);
    expect(decideOutput({ color: false }, {}, tty).color).toBe(false);
    expect(decideOutput({ json: true }, {}, tty).color).toBe(false);
    expect(decideOutput({}, { FORCE_COLOR: '1' }, pipe).color).toBe(true);
    expect(decideOutput({}, { TERM: 'dumb' }, tty).color).toBe(false);
  });

  it('is interactive only for a person at a terminal outside CI', () => {
    expect(decideOutput({}, {}, tty).interactive).toBe(true);
    expect(decideOutput({}, { CI: 'true' }, tty).interactive).toBe(false);
    expect(decideOutput({}, {}, { ...tty, stderrIsTTY: false }).interactive).toBe(false);
  });

  it('fits tables to the terminal, else to a valid $COLUMNS, else to 100 columns', () => {
    expect(decideOutput({}, { COLUMNS: '60' }, tty).width).toBe(80);
    // `script` and some CI terminals report 0 columns: $COLUMNS is the next best answer.
    expect(decideOutput({}, { COLUMNS: '80' }, { ...tty, columns: 0 }).width).toBe(80);
    expect(decideOutput({}, { COLUMNS: 'wide' }, { ...tty, columns: 0 }).width).toBe(100);
    expect(decideOutput({}, {}, pipe).width).toBe(100);
  });

  it('picks the format', () => {
    expect(decideOutput({}, {}, tty).format).toBe('table');
    expect(decideOutput({}, {}, pipe).format).toBe('plain');
    expect(decideOutput({ jsonl: true }, {}, tty).format).toBe('jsonl');
    expect(() => decideOutput({ json: true, jsonl: true }, {}, tty)).toThrow('choose one of --json and --jsonl');
  });
});

describe('Output', () => {
  const rows = [
    { id: 'a', name: 'first\tone', created_at: '2026-11-22T10:11:12.345Z' },
    { id: 'b', name: 'second', created_at: '2026-11-21T00:00:00Z' },
  ];
  const columns = [{ key: 'id' }, { key: 'name' }, { key: 'created_at' }];

  it('pipes tab-separated rows without header or shortening', () => {
    const c = capture({}, pipe);
    c.output.list(rows, columns);
    expect(c.out()).toBe('a\tfirst one\t2026-11-22T10:11:12.345Z\nb\tsecond\t2026-11-21T00:00:00Z\n');
  });

  it('keeps only --fields in JSON, in order', () => {
    const c = capture({ json: true, fields: 'name,id' }, pipe);
    c.output.list(rows, columns);
    expect(JSON.parse(c.out())).toEqual([
      { name: 'first\tone', id: 'a' },
      { name: 'second', id: 'b' },
    ]);
  });

  it('streams --all as one JSON array, and as lines with --jsonl', async () => {
    async function* items() {
      yield rows.slice(0, 1);
      yield [];
      yield rows.slice(1);
    }
    const json = capture({ json: true }, pipe);
    expect(await json.output.stream(items(), columns)).toBe(2);
    expect(JSON.parse(json.out())).toEqual(rows);
    const empty = capture({ json: true }, pipe);
    await empty.output.stream((async function* () {})(), columns);
    expect(JSON.parse(empty.out())).toEqual([]);
    const lines = capture({ jsonl: true }, pipe);
    await lines.output.stream(items(), columns);
    expect(lines.out().trim().split('\n').map((line) => JSON.parse(line))).toEqual(rows);
  });

  it('prints a detail view as label<TAB>value when piped', () => {
    const c = capture({}, pipe);
    c.output.record({ id: 'a' }, [{ label: 'id', value: 'a' }, { label: 'status', value: 'completed' }]);
    expect(c.out()).toBe('id\ta\nstatus\tcompleted\n');
  });

  it('keeps hints off stdout and quiet with -q', () => {
    const c = capture({ quiet: true }, tty);
    c.output.info('hello');
    c.output.error('bad');
    expect(c.out()).toBe('');
    expect(c.err()).toBe('bad\n');
  });
});

describe('tables on a terminal', () => {
  it('fit the width by shortening the widest column', () => {
    const text = renderTable([{ key: 'id' }, { key: 'prompt' }], [{ id: 'abc', prompt: 'x'.repeat(200) }], 40, (s) => s);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(text).toContain('…');
    expect(text.split('\n')[0]).toMatch(/^ID\s+PROMPT$/);
  });

  const id = 'e20f6bd1-d54b-4115-9bce-d2c35b7a3f10';
  const task = { id, status: 'in_progress', created_at: '2026-11-23T10:52:29.123Z', credits_cost: '0.400', prompt: 'Find the cheapest flight from Oslo to Rome in May and list three options' };
  const taskColumns = [
    { key: 'id' },
    { key: 'status' },
    { key: 'created_at', header: 'created', optional: true },
    { key: 'credits_cost', header: 'credits', optional: true },
    { key: 'prompt' },
  ];

  it('never cut ids or dates: free text shrinks first; at 80 columns optional ones go before the prompt', () => {
    const wide = renderTable(taskColumns, [task], 100, (s) => s);
    for (const line of wide.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(wide).toContain(id);
    expect(wide).toContain('2026-11-23 10:52Z');
    expect(wide).toMatch(/Find the.*…/);
    const text = renderTable(taskColumns, [task], 80, (s) => s);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(text).toContain(id);
    expect(text.split('\n')[0]).toMatch(/^ID\s+STATUS\s+PROMPT$/);
    // The room of both dropped columns goes to the prompt.
    expect(text).toMatch(/Find the cheapest flight fro…/);
  });

  it('show ids short (8 characters) rather than lose the prompt (60 columns), and say so', () => {
    const heard: string[][] = [];
    const text = renderTable(taskColumns, [task], 60, (s) => s, (headers) => heard.push(headers));
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(text.split('\n')[0]).toMatch(/^ID\s+STATUS\s+PROMPT$/);
    expect(text.split('\n')[1]).toMatch(/^e20f6bd1\s+in_progress\s+Find the cheapest flight/);
    expect(heard).toEqual([['id']]);
  });

  it('keep status, a short id and readable prompt text at 40 columns (once only the id was left)', () => {
    const text = renderTable(taskColumns, [task, { ...task, status: 'completed' }], 40, (s) => s);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(text.split('\n')).toEqual([
      expect.stringMatching(/^ID\s+STATUS\s+PROMPT$/),
      expect.stringMatching(/^e20f6bd1 {2}in_progress {2}Find the cheapes…$/),
      expect.stringMatching(/^e20f6bd1 {2}completed {4}Find the cheapes…$/),
    ]);
  });

  it('show a date without its year before leaving out a column that is not optional', () => {
    const columns = [{ key: 'id' }, { key: 'created_at', header: 'created' }, { key: 'prompt' }];
    const text = renderTable(columns, [task], 75, (s) => s);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(75);
    expect(text).toContain(id); // the date gave enough room: the id stays whole
    expect(text).toMatch(/ {2}11-23 10:52Z {2}Find the cheapest/);
    expect(text).not.toContain('2026-');
  });

  it('read the width again for each table (a resized terminal), and say when ids are cut', () => {
    const terminal: Terminal = { ...tty, columns: 100 };
    const c = capture({ color: false }, terminal);
    c.output.list([task], taskColumns);
    expect(c.out()).toContain(id);
    expect(c.err()).toBe('');
    terminal.columns = 40; // what the launcher's getter reads after SIGWINCH
    c.output.list([task], taskColumns);
    for (const line of c.out().split('\n').slice(2)) expect(line.length).toBeLessThanOrEqual(40);
    expect(c.out()).toMatch(/^e20f6bd1 {2}in_progress/m);
    expect(c.err()).toBe('id cut to 8 characters to fit the terminal; piped or with --json, whole.\n');
  });

  it('leave the id whole where it fits (80 columns and more)', () => {
    const heard: string[][] = [];
    renderTable(taskColumns, [task], 80, (s) => s, (headers) => heard.push(headers));
    expect(heard).toEqual([]);
  });
});

describe('frames of a live view', () => {
  it('count the rows a frame takes at a width: long lines wrap, colours take none', () => {
    expect(frameRows('a\nb\n', 80)).toBe(2);
    expect(frameRows(`${'x'.repeat(80)}\n${'y'.repeat(81)}\n\n`, 80)).toBe(1 + 2 + 1);
    expect(frameRows(`\x1b[1m${'x'.repeat(40)}\x1b[22m\n`, 40)).toBe(1);
    expect(frameRows(`${'x'.repeat(70)}\n`, 40)).toBe(2); // after a resize to 40, the 80-column line has reflowed
  });

  it('move up over the last frame and clear to the end of the screen', () => {
    expect(overFrame(3)).toBe('\x1b[3A\r\x1b[J');
    expect(overFrame(0)).toBe('\r\x1b[J');
  });
});

describe('text from the service on a terminal', () => {
  const hostile = 'ok\u001b]0;pwned\u0007\u001b[2J\u009b31m\rX';

  it('shows control characters escaped in tables, details, lines and messages', () => {
    const c = capture({}, tty);
    c.output.list([{ id: 'a', name: hostile }], [{ key: 'id' }, { key: 'name' }]);
    c.output.record({ name: hostile }, [{ label: 'name', value: hostile }]);
    c.output.line(hostile);
    c.output.error(`error: ${hostile}`);
    for (const raw of ['\u0007', '\u001b]', '\u001b[2J', '\u009b', '\r']) expect(c.out() + c.err()).not.toContain(raw);
    expect(c.out()).toContain('ok\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\x0dX');
    const piped = capture({}, pipe);
    piped.output.list([{ id: 'a', name: hostile }], [{ key: 'id' }, { key: 'name' }]);
    expect(piped.out()).not.toContain('\u001b');
  });

  it('keeps the exact string in JSON', () => {
    const c = capture({ json: true }, tty);
    c.output.record({ name: hostile }, []);
    expect(JSON.parse(c.out()).name).toBe(hostile);
  });

  it('keeps agentctl\'s own colours', () => {
    const c = capture({}, tty);
    c.output.info(c.output.chalk.dim('hint'));
    expect(c.err()).toBe('\u001b[2mhint\u001b[22m\n');
  });
});

describe('--fields', () => {
  const rows = [{ id: 'a', name: 'first' }];
  const columns = [{ key: 'id' }, { key: 'name' }];
  it('refuses a field the records do not have, listing the ones they do', () => {
    const c = capture({ json: true, fields: 'id,bogus' }, pipe);
    expect(() => c.output.list(rows, columns)).toThrow(/unknown field in --fields: bogus/);
    const table = capture({ fields: 'id,bogus' }, tty);
    expect(() => table.output.list(rows, columns)).toThrowError(expect.objectContaining({ exitCode: 2, hint: expect.stringContaining('id, name') }));
  });
});

describe('machine lines', () => {
  it('keep the exact text (a JSON line with a C1 character stays valid JSON)', () => {
    const c = capture({ jsonl: true }, pipe);
    const line = JSON.stringify({ name: 'a\u009bb' });
    c.output.line(line);
    expect(JSON.parse(c.out()).name).toBe('a\u009bb');
  });
});

describe('format decisions stay in Output', () => {
  it('answer() prints the record for machines and the sentence for people', () => {
    const json = capture({ json: true }, pipe);
    json.output.answer({ id: 'x', deleted: true }, () => json.output.success('Deleted x.'));
    expect(JSON.parse(json.out())).toEqual({ id: 'x', deleted: true });
    expect(json.err()).toBe('');

    const person = capture({ color: false }, tty);
    person.output.answer({ id: 'x', deleted: true }, () => person.output.success('Deleted x.'));
    expect(person.out()).toBe('');
    expect(person.err()).toBe('✓ Deleted x.\n');
  });

  it('tableNote() speaks only to a person reading a table', () => {
    const piped = capture({}, pipe);
    piped.output.tableNote('3 items');
    expect(piped.err()).toBe('');
    const person = capture({ color: false }, tty);
    person.output.tableNote('3 items');
    expect(person.err()).toBe('3 items\n');
  });
});
