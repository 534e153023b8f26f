// --jq over a stream of JSON lines (issue 47): one run of jq reads every line, as
// `agentctl ... --jsonl | jq` would, so `input`, `inputs`, `halt`, `halt_error` and an error in one
// document behave as they do in jq. Before, jq ran once per line: `inputs` saw nothing, `halt`
// stopped nothing, and the first error ended the listing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { agentctl, against, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const TASKS = 12;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 60_000 });
  cli = against(emulator.baseUrl);
  for (let i = 0; i < TASKS; i++) await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: `[hang] stream ${i}` });
});
afterAll(() => emulator.close());

// Four pages of three: the documents reach jq a page at a time, and it reads across pages.
const list = (jq: string) => cli(['tasks', 'list', '--all', '--jsonl', '--page-size', '3', '--jq', jq]);

describe('--jsonl --jq: one jq run over the whole stream', () => {
  it('`inputs` reads the documents after the first, across pages', async () => {
    const result = await list('[., inputs] | length');
    expect(result).toMatchObject({ exitCode: 0, stdout: `${TASKS}\n` });
  });

  it('`input` takes the next document', async () => {
    const result = await list('[.prompt, input.prompt] | join(" + ")');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(TASKS / 2);
  });

  it('`halt` ends it: nothing after, exit 0', async () => {
    const result = await list('if .prompt == "[hang] stream 4" then halt else .prompt end');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(result.stdout.includes('stream 11') ? 7 : 4);
    expect(result.stdout).not.toContain('stream 4\n');
  });

  it('`halt_error` prints its message on stderr and fails the command (exit 2)', async () => {
    const result = await list('if .prompt == "[hang] stream 1" then "stopped here\\n" | halt_error else .prompt end');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^stopped here\n/); // as jq prints it, before agentctl's own line
    expect(result.stdout.trim().split('\n').length).toBeLessThan(TASKS);
  });

  it('an error in one document is reported and the others are still filtered; exit 2 at the end', async () => {
    const result = await list('if .prompt == "[hang] stream 5" then error("bad one") else .prompt end');
    expect(result.exitCode).toBe(2);
    expect(result.stdout.trim().split('\n')).toHaveLength(TASKS - 1);
    expect(result.stderr).toMatch(/jq: error \(at <stdin>:\d+\): bad one/);
    expect(result.stderr.match(/jq: error/g), result.stderr).toHaveLength(1);
  });
});

describe('--jsonl --jq with a plain key path (answered without jq, src/output/jq-path.ts)', () => {
  let mixed: RunningEmulator;
  let run: ReturnType<typeof against>;
  beforeAll(async () => {
    // Seven tasks, the fourth newest with a webhook and an output schema: the first page (of three)
    // is answered without jq, and its first object or text to index hands the rest to jq.
    mixed = await startEmulator({ port: 0, taskDurationMs: 60_000 });
    run = against(mixed.baseUrl);
    for (let i = 0; i < 7; i++) {
      const special = i === 3 ? { webhook: 'http://127.0.0.1:9/hook', output_schema: { type: 'object' } } : {};
      await apiRequest(mixed.baseUrl, 'POST', '/tasks/browser-use/', { prompt: `[hang] mixed ${i}`, ...special });
    }
  });
  afterAll(() => mixed.close());

  /** The expression, and the same in parentheses (not a key path: jq runs it). */
  const both = async (expression: string) => {
    const list = (jq: string) => run(['tasks', 'list', '--all', '--jsonl', '--page-size', '3', '--jq', jq]);
    return [await list(expression), await list(`(${expression})`)] as const;
  };

  it('prints what jq prints, a document jq must answer (an object) taking over from there', async () => {
    for (const expression of ['.prompt', '.output_schema', '.output_schema.type', '.no_such_key']) {
      const [plain, viaJq] = await both(expression);
      expect(plain.exitCode, plain.stderr).toBe(0);
      expect(plain.stdout.split('\n')).toHaveLength(8);
      expect(plain.stdout, expression).toBe(viaJq.stdout);
    }
  });

  it("reports jq's error for a document it cannot index, at the same line, and exits 2", async () => {
    const [plain, viaJq] = await both('.webhook.x');
    expect(plain.exitCode).toBe(2);
    expect(plain.stdout).toBe(viaJq.stdout);
    expect(plain.stdout.split('\n')).toHaveLength(7); // the other six documents
    const jqLine = (stderr: string) => stderr.split('\n').find((line) => line.startsWith('jq: error'));
    expect(jqLine(plain.stderr)).toBe('jq: error (at <stdin>:4): Cannot index string with string "x"');
    expect(jqLine(plain.stderr)).toBe(jqLine(viaJq.stderr));
  });
});

describe('tasks run-batch --jq', () => {
  it('reads the outcome lines as one stream: `[., inputs]` sees every outcome', async () => {
    const file = join(tempDir(), 'batch.jsonl');
    writeFileSync(file, ['one', 'two', 'three'].map((prompt) => JSON.stringify({ prompt: `[hang] ${prompt}` })).join('\n'));
    const result = await cli(['tasks', 'run-batch', file, '--jq', '[., inputs] | map(.line) | sort']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([1, 2, 3]);
  });
});

const createTask = (prompt: string) => apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt });

describe('--jq', () => {
  it('filters the JSON output with a jq expression', async () => {
    const { id } = await createTask('jq');
    const result = await cli(['tasks', 'get', id, '--jq', '.prompt']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'jq\n' });
    const list = await cli(['tasks', 'list', '--jq', '.[0] | .id']);
    expect(list.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const lines = await cli(['tasks', 'list', '--jsonl', '--jq', '.status']);
    expect(lines.stdout.trim().split('\n').every((line) => line === 'pending' || line === 'in_progress')).toBe(true);
  });

  it('prints before a failing exit code, and a runtime error exits 2', async () => {
    const { id } = await createTask('jq cancelled');
    await apiRequest(emulator.baseUrl, 'POST', `/tasks/browser-use/${id}/cancel/`);
    const result = await cli(['tasks', 'result', id, '--jq', '.status']);
    expect(result).toMatchObject({ exitCode: 6, stdout: 'cancelled\n' });
    const failing = await cli(['tasks', 'get', id, '--jq', '.status | error("boom")']);
    expect(failing.exitCode).toBe(2);
    expect(failing.stderr).toContain('boom');
  });

  it('refuses an expression that does not compile before any request (exit 2)', async () => {
    const result = await agentctl(['tasks', 'list', '--jq', '.[', '--base-url', 'http://127.0.0.1:9/api/v1', '--api-key', 'k123']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--jq.*syntax error/);
  });
});
