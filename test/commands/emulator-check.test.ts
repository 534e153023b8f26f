// `agentctl emulator check CASSETTE...`: a cassette recorded from the emulator replays with no
// difference; one edited in known ways reports exactly those differences, each by its rule.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { agentctl, tempDir } from '../helpers/cli.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the edits reach into recorded answers of any shape
type Line = Record<string, unknown> & { method: string; path: string; status: number; body: any };

let emulator: RunningEmulator;
let recorded: Line[];
const folder = tempDir();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 60_000 });
  const file = join(folder, 'recorded.jsonl');
  const env = { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key', AGENTCTL_RECORD: file };
  const first = (await agentctl(['tasks', 'create', 'first task', '--id-only'], { env })).stdout.trim();
  for (const args of [
    ['tasks', 'create', 'second task', '--webhook', 'https://hooks.example.com/h/?t=abcdef123'],
    ['agents', 'create', '--name', 'recorded agent'],
    ['api', '/tasks/browser-use/?page_size=1'],
    ['api', '/tasks/browser-use/?page_size=10'],
    ['tasks', 'get', '00000000-0000-4000-8000-000000000000'],
  ]) {
    await agentctl(args, { env });
  }
  // The emulator's id for this task differs from the recorded one: the replay maps it.
  await agentctl(['tasks', 'get', first], { env });
  recorded = readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Line);
  expect(recorded.map((line) => `${line.method} ${line.status}`)).toEqual(['POST 201', 'POST 201', 'POST 201', 'GET 200', 'GET 200', 'GET 404', 'GET 200']);
});
afterAll(() => emulator.close());

/** A copy of the recording, edited, as a cassette file. */
function cassette(name: string, edit: (lines: Line[]) => void = () => undefined): string {
  const lines = structuredClone(recorded);
  edit(lines);
  const file = join(folder, name);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

const check = (args: string[]) => agentctl(['emulator', 'check', ...args]);

async function differences(file: string, extra: string[] = []): Promise<string[]> {
  const result = await check([file, '--json', ...extra]);
  const report = JSON.parse(result.stdout) as { cassettes: Array<{ exchanges: Array<{ line: number; differences: Array<{ rule: string; path: string; known: string | null; ignored: boolean }> }> }> };
  return report.cassettes[0]!.exchanges.flatMap((exchange) => exchange.differences.map((found) => `line ${exchange.line} ${found.rule} ${found.path}${found.known ? ` known:${found.known}` : ''}${found.ignored ? ' ignored' : ''}`));
}

describe('emulator check', () => {
  it('a cassette recorded from the emulator replays with no difference: exit 0', async () => {
    const result = await check([cassette('same.jsonl')]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/No difference: the emulator answered all 7 replayed requests as recorded\./);
  });

  it('a cassette edited in known ways: exactly those differences, by rule (exit 1)', async () => {
    const file = cassette('edited.jsonl', (lines) => {
      const created = lines[0]!.body;
      created.state = created.status; // a renamed field
      delete created.status;
      lines[1]!.body.created_at = '2026-03-02T10:00:00.123Z'; // a timestamp's precision: milliseconds, not microseconds
      lines[2]!.status = 200; // a status
      lines[4]!.body.results.reverse(); // a reordered page
    });
    expect(await differences(file)).toEqual(['line 1 field-missing state', 'line 1 field-extra status', 'line 2 field-format created_at', 'line 3 status ', 'line 5 ordering results']);
    const human = await check([file]);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('line 3: POST /agents/browser-use/ 200 -> 201');
    expect(human.stdout).toMatch(/field-format +created_at: recorded timestamp \(3 fraction digits, Z\), emulator timestamp \(microseconds, Z\)/);
    expect(human.stdout).toMatch(/5 differences in 4 of 7 requests\./);
  });

  it('--ignore RULE accepts a rule; a difference the emulator documents is known and passes', async () => {
    const reordered = cassette('reordered.jsonl', (lines) => lines[4]!.body.results.reverse());
    expect((await check([reordered])).exitCode).toBe(1);
    const ignored = await check([reordered, '--ignore', 'ordering']);
    expect(ignored.exitCode).toBe(0);
    expect(ignored.stdout).toMatch(/\(1 ignored\)/);
    expect(await differences(reordered, ['--ignore', 'ordering'])).toEqual(['line 5 ordering results ignored']);
    expect((await check([reordered, '--ignore', 'no-such-rule'])).exitCode).toBe(2);

    const answer = await apiRequest<Record<string, unknown>>(emulator.baseUrl, 'OPTIONS', '/tasks/browser-use/');
    const options = cassette('options.jsonl', (lines) => {
      lines.splice(0, lines.length, { ...lines[5]!, method: 'OPTIONS', path: '/tasks/browser-use/', status: 200, body: { ...answer, actions: { POST: {} } } });
    });
    const known = await check([options]);
    expect(known.stdout).toMatch(/field-missing +actions: .*\(known: options-actions\)/);
    expect(known.exitCode, known.stdout).toBe(0);
  });

  it('--junit FILE: one testcase per recorded request, a failure for each that differs', async () => {
    const junit = join(folder, 'check.xml');
    const file = cassette('junit.jsonl', (lines) => lines[4]!.body.results.reverse());
    expect((await check([file, '--junit', junit])).exitCode).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(7);
    expect(xml).toMatch(/<testsuite name="agentctl emulator check" tests="7" failures="1"/);
    expect(xml).toMatch(/junit\.jsonl:5 GET \/tasks\/browser-use\/"[^]*<failure type="ordering"/);
  });

  it('hostile cassettes: a path that leaves the API is refused (exit 2); their text reaches the terminal escaped', async () => {
    for (const path of ['http://evil.example/x/', '/../admin/', '//evil.example/', '/tasks/\u001b[2J/']) {
      const result = await check([cassette('hostile.jsonl', (lines) => (lines[0]!.path = path))]);
      expect(result.exitCode, path).toBe(2);
      expect(result.stderr).toMatch(/line 1: "path" is not a URL path below the base URL/);
    }
    const text = cassette('text.jsonl', (lines) => (lines[5]!.body = { detail: 'Not found.\u001b]0;pwned\u0007' }));
    const result = await check([text]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout.includes('\u001b') || result.stdout.includes('\u0007')).toBe(false);
    expect(result.stdout).toContain('\\u001b]0;pwned');
    expect((await check([cassette('junk.jsonl', (lines) => lines.push('not a line' as never))])).exitCode).toBe(2);
  });
});
