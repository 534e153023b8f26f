import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { against, tempDir } from '../helpers/cli.js';
import { jsonLines } from '../helpers/json-lines.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
let dir: string;
let input: string;
/** Each shard's stdout, as a CI job keeps it. */
const outputs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 30 });
  cli = against(emulator.baseUrl);
  dir = tempDir();
  input = join(dir, 'tasks.jsonl');
  const lines = Array.from({ length: 9 }, (_, i) => (i === 4 ? '{"prompt": "this one will [fail]", "key": "five"}' : `report task ${i + 1}`));
  writeFileSync(input, `${lines.join('\n')}\n`);
  for (const shard of ['1/3', '2/3', '3/3']) {
    const run = await cli(['tasks', 'run-batch', input, '--shard', shard, '--follow', '--interval', '0.05']);
    const output = join(dir, `shard-${shard[0]}.jsonl`);
    writeFileSync(output, run.stdout);
    outputs.push(output);
  }
});
afterAll(() => emulator.close());

describe('tasks batch-report', () => {
  it('joins the shards: every line once, in order; exit code of the worst (a failed task: 5)', async () => {
    const result = await cli(['tasks', 'batch-report', ...outputs, '--input', input]);
    expect(result.exitCode, result.stderr).toBe(5);
    const lines = jsonLines(result.stdout);
    expect(lines.map((line) => line.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(lines[4]).toMatchObject({ key: 'five', status: 'failed' });
    expect(result.stderr).toMatch(/^9\/9 lines: 8 completed, 1 failed/m);
  });

  it('names the lines no shard reported as missing (exit 1), and a line created twice as duplicated', async () => {
    const missing = await cli(['tasks', 'batch-report', outputs[0] ?? '', outputs[1] ?? '', '--input', input]);
    expect(missing.exitCode).toBe(1);
    expect(jsonLines(missing.stdout).filter((line) => line.status === 'missing').map((line) => line.line)).toEqual([3, 6, 9]);
    expect(missing.stderr).toContain('line 3: missing');

    const twice = join(dir, 'twice.jsonl');
    writeFileSync(twice, `${JSON.stringify({ line: 1, key: null, id: '00000000-0000-4000-8000-000000000001', status: 'completed', result: null, error: null })}\n`);
    const duplicated = await cli(['tasks', 'batch-report', ...outputs, twice, '--input', input]);
    expect(duplicated.exitCode).toBe(1);
    const first = jsonLines(duplicated.stdout)[0];
    expect(first).toMatchObject({ line: 1, status: 'duplicated' });
    expect(first?.ids).toHaveLength(2);
    expect(duplicated.stderr).toMatch(/line 1: duplicated: created 2 times/);
  });

  it('reads ledgers too: a shard killed before it printed is reported from its ledger; a cut-off last line is left out', async () => {
    const ledger = `${input}.shard-3-of-3.ledger`;
    const torn = join(dir, 'torn.jsonl');
    // Line 3's outcome whole (the shard's tasks end in any order), then line 6's cut off.
    const line3 = readFileSync(outputs[2] ?? '', 'utf8').split('\n').find((line) => line.startsWith('{"line":3,'));
    writeFileSync(torn, `${line3}\n{"line": 6, "sta`);
    const result = await cli(['tasks', 'batch-report', outputs[0] ?? '', outputs[1] ?? '', torn, ledger, '--input', input]);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(9);
    expect(lines.find((line) => line.line === 3)?.status).toBe('completed'); // from the output
    expect(lines.find((line) => line.line === 6)?.status).toBe('created'); // from the ledger: created, outcome not printed
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('torn.jsonl: its last line is cut off');
  });

  it('reads a ledger whose last record a full disk or a crash tore, leaving that record out', async () => {
    const ledger = join(dir, 'torn.ledger');
    writeFileSync(ledger, `${readFileSync(`${input}.shard-3-of-3.ledger`, 'utf8')}{"line":9,"hash":"0","state":"created","id":"0b1c`);
    const result = await cli(['tasks', 'batch-report', outputs[0] ?? '', outputs[1] ?? '', ledger, '--input', input]);
    expect(jsonLines(result.stdout).map((line) => [line.line, line.status])).toContainEqual([9, 'created']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('torn.ledger: its last line is cut off');
  });

  it("takes back a ledger's `sending` with its `unsent` record (a stopped run never sent that line): missing, not unknown", async () => {
    const ledger = join(dir, 'unsent.ledger');
    const records = [
      { line: 3, hash: '0', state: 'sending' },
      { line: 6, hash: '0', state: 'sending' },
      { line: 3, hash: '0', state: 'unsent' },
    ];
    writeFileSync(ledger, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const result = await cli(['tasks', 'batch-report', outputs[0] ?? '', outputs[1] ?? '', ledger, '--input', input]);
    const status = new Map(jsonLines(result.stdout).map((line) => [line.line, line.status]));
    expect(status.get(3)).toBe('missing');
    expect(status.get(6)).toBe('unknown'); // the run stopped while creating it
    expect(result.exitCode).toBe(1);
  });

  it("an `unsent` record takes back only its own run's `sending`: a line a killed run left unknown stays unknown", async () => {
    const ledger = join(dir, 'unsent-after-unknown.ledger');
    const records = [
      { line: 3, hash: '0', state: 'sending' }, // killed while creating it: it may exist
      { line: 3, hash: '0', state: 'sending' }, // a rerun with --retry-unknown, stopped before sending it
      { line: 3, hash: '0', state: 'unsent' },
    ];
    writeFileSync(ledger, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const result = await cli(['tasks', 'batch-report', outputs[0] ?? '', outputs[1] ?? '', ledger, '--input', input]);
    const status = new Map(jsonLines(result.stdout).map((line) => [line.line, line.status]));
    expect(status.get(3)).toBe('unknown');
  });

  it('writes JUnit XML (one testcase per line, the failed one a failure), and under GitHub Actions a step summary and ::error annotations', async () => {
    const junit = join(dir, 'batch.xml');
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n');
    const result = await cli(['tasks', 'batch-report', ...outputs, '--input', input, '--junit', junit], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(result.exitCode).toBe(5);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(9);
    expect(xml).toContain('<testsuites name="agentctl tasks batch" tests="9" failures="1"');
    expect(xml).toMatch(/<testcase classname="agentctl.batch" name="line 5 \(five\)">\s*<failure type="failed" message="failed: /);
    expect(result.stderr).toMatch(new RegExp(`^::error file=${input.replace(/[/.]/g, '\\$&')},line=5,title=Batch line 5 \\(five\\)%3A failed::`, 'm'));
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toMatch(/^# earlier step\n### agentctl batch: 9 lines\n/);
    expect(markdown).toContain('| `completed` | 8 |');
    // What the lines say is shown as code: never read as Markdown or HTML.
    expect(markdown).toMatch(/\| `line 5 \(five\)` \| `failed` \| `[0-9a-f-]{36}` \|/);

    const quiet = await cli(['tasks', 'batch-report', ...outputs, '--input', input, '--annotations', 'none'], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(quiet.stderr).not.toContain('::error');
    expect(readFileSync(summary, 'utf8')).toBe(markdown);
  });

  it('refuses what is not a shard output or ledger, and an unknown --annotations, with exit 2', async () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"hello": 1}\n{"hello": 2}\n');
    const result = await cli(['tasks', 'batch-report', other]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("other.json:1: not a line of run-batch's output or ledger");
    expect((await cli(['tasks', 'batch-report', other, '--annotations', 'gitlab'])).exitCode).toBe(2);
  });
});
