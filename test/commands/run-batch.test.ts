import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { send } from '../helpers/http.js';
import { jsonLines } from '../helpers/json-lines.js';
import { against, tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { sendJson, stubServer, type StubRequest } from '../helpers/stub-server.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const FAST = ['--interval', '0.05'];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 50 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const taskCount = async () => (await apiRequest<{ count: number }>(emulator.baseUrl, 'GET', '/tasks/browser-use/')).count;

/** Forwards to the emulator unless `fault` answers for it (a 429, a 503, a connection reset after sending). */
async function faultyProxy(fault: (request: StubRequest, creates: number) => 'forward' | 'reset-after-forward' | ((res: ServerResponse) => void)) {
  let creates = 0;
  const proxy = await stubServer((request, res) => {
    const isCreate = request.method === 'POST' && /\/tasks\/browser-use\/$/.test(request.url);
    const action = isCreate ? fault(request, ++creates) : 'forward';
    if (typeof action === 'function') return action(res);
    void send(`${emulator.baseUrl.replace(/\/api\/v1$/, '')}${request.url}`, {
      method: request.method,
      headers: { 'x-api-key': String(request.headers['x-api-key']), 'content-type': 'application/json' },
      body: request.method === 'GET' ? undefined : request.body,
    }).then((answer) => {
      if (action === 'reset-after-forward') return res.socket?.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.text);
    });
  });
  return { ...proxy, cli: against(proxy.baseUrl) };
}

function inputFile(lines: string[], name = 'tasks.jsonl'): string {
  const path = join(tempDir(), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('tasks run-batch', () => {
  it('runs 1,000 lines with --follow: one JSON line per task, exit 0, ledger beside the input', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `plain prompt ${i}` : JSON.stringify({ prompt: `task ${i}`, key: `k${i}` })));
    const file = inputFile(lines);
    const before = await taskCount();
    const result = await cli(['tasks', 'run-batch', file, '--follow', '--concurrency', '16', ...FAST], { timeoutMs: 60_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const out = jsonLines(result.stdout);
    expect(out).toHaveLength(1000);
    expect(new Set(out.map((o) => o.line)).size).toBe(1000);
    expect(out.every((o) => o.status === 'completed' && typeof o.id === 'string' && o.error === null)).toBe(true);
    expect(out.find((o) => o.line === 1)).toMatchObject({ key: 'k0' });
    expect(out.find((o) => o.line === 2)).toMatchObject({ key: null });
    expect(await taskCount()).toBe(before + 1000);
    expect(result.stderr).toMatch(/1000\/1000 tasks: 1000 completed/);
    expect(existsSync(`${file}.ledger`)).toBe(true);

    // Again: nothing is created twice, the same ids are reported (resumed waiting: see the Ctrl-C test).
    const again = await cli(['tasks', 'run-batch', file, '--concurrency', '16'], { timeoutMs: 60_000 });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await taskCount()).toBe(before + 1000);
    const ids = (o: Record<string, unknown>[]) => o.map((x) => `${x.line}:${x.id}`).sort();
    expect(ids(jsonLines(again.stdout))).toEqual(ids(out));
    // Without --follow the lines the ledger had are "reused", counted apart from those created now.
    expect(jsonLines(again.stdout).every((o) => o.status === 'reused')).toBe(true);
    expect(again.stderr).toMatch(/1000\/1000 tasks: 1000 reused/);
  });

  it('a rerun against another service says the ledger\'s tasks are not there and how to start afresh: exit 2, nothing created', async () => {
    const file = inputFile(['elsewhere one', 'elsewhere two']);
    const first = await cli(['tasks', 'run-batch', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    const other = await startEmulator({ port: 0, taskDurationMs: 50 });
    try {
      const rerun = await against(other.baseUrl)(['tasks', 'run-batch', file, '--follow', ...FAST]);
      expect(rerun.exitCode, rerun.stderr).toBe(2);
      expect(rerun.stderr).toContain(`the ledger ${file}.ledger lists 2 tasks created on ${emulator.baseUrl}, not on ${other.baseUrl} (this run's service): their ids mean nothing there`);
      expect(rerun.stderr).toMatch(/to start afresh, move the ledger away \(mv .*\.ledger .*\.ledger\.old\) or give another with --ledger PATH; to resume, rerun against .* \(--base-url URL\)/);
      expect(rerun.stdout).toBe('');
      expect(other.state.tasks.size).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('a rerun after the emulator forgot its records (restarted, or reset) says so instead of a 404 per line: exit 2, nothing created', async () => {
    const own = await startEmulator({ port: 0, taskDurationMs: 50 });
    try {
      const file = inputFile(['forgotten one', 'forgotten two', 'forgotten three']);
      const first = await against(own.baseUrl)(['tasks', 'run-batch', file]);
      expect(first.exitCode, first.stderr).toBe(0);
      // The same records kept: a rerun reuses them.
      const again = await against(own.baseUrl)(['tasks', 'run-batch', file]);
      expect(again.exitCode, again.stderr).toBe(0);
      own.reset();
      const rerun = await against(own.baseUrl)(['tasks', 'run-batch', file, '--follow', ...FAST]);
      expect(rerun.exitCode, rerun.stderr).toBe(2);
      expect(rerun.stderr).toContain(`the ledger ${file}.ledger lists 3 tasks created by an earlier run of the emulator at ${own.baseUrl}, which has forgotten them since (restarted without --state, or reset)`);
      expect(rerun.stderr).toMatch(/to start afresh, move the ledger away/);
      expect(own.state.tasks.size).toBe(0);
    } finally {
      await own.close();
    }
  });

  it('a rerun without --follow after lines were added: the old lines "reused", the new ones "created", each counted', async () => {
    const file = inputFile(['reuse one', 'reuse two']);
    const first = await cli(['tasks', 'run-batch', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    writeFileSync(file, 'reuse one\nreuse two\nreuse three\n');
    const rerun = await cli(['tasks', 'run-batch', file]);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const byLine = new Map(jsonLines(rerun.stdout).map((o) => [o.line, o]));
    expect([1, 2, 3].map((line) => byLine.get(line)?.status)).toEqual(['reused', 'reused', 'created']);
    expect(byLine.get(1)?.id).toBe(jsonLines(first.stdout).find((o) => o.line === 1)?.id);
    expect(rerun.stderr).toMatch(/3\/3 tasks: (2 reused, 1 created|1 created, 2 reused) in/);
  });

  it('checks every line before sending anything: bad lines are listed with their numbers, exit 2', async () => {
    const file = inputFile([
      '{"prompt": "fine", "key": "a"}',
      '{"prompt": "broken"',
      '',
      '{"promt": "typo"}',
      '{"prompt": ""}',
      '{"prompt": "dup", "key": "a"}',
      '{"prompt": "x", "webhook": "ftp://example.com"}',
      '{"prompt": "x", "agent": "not-a-uuid"}',
      '{"prompt": "x", "secrets": {"https://a.example": {"bad key": "v"}}}',
    ]);
    const before = await taskCount();
    const result = await cli(['tasks', 'run-batch', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/7 bad lines; nothing was sent/);
    for (const line of [2, 4, 5, 6, 7, 8, 9]) expect(result.stderr).toContain(`line ${line}:`);
    expect(result.stderr).toContain('unknown field "promt"');
    expect(result.stderr).toContain('key "a" is already used on line 1');
    expect(await taskCount()).toBe(before);
    expect(existsSync(`${file}.ledger`)).toBe(false);
  });

  it('refuses bad flags and a missing file before any request', async () => {
    expect((await cli(['tasks', 'run-batch', '/nonexistent/tasks.jsonl'])).stderr).toMatch(/cannot read/);
    expect((await cli(['tasks', 'run-batch'], { terminal: { stdinIsTTY: true } })).stderr).toMatch(/no tasks: give a FILE/);
    const file = inputFile(['a']);
    for (const flags of [['--concurrency', '0'], ['--shard', '3/2'], ['--shard', 'x']]) {
      const result = await cli(['tasks', 'run-batch', file, ...flags]);
      expect(result.exitCode, flags.join(' ')).toBe(2);
    }
  });

  it('reads plain prompts from stdin and prints one created line each', async () => {
    const result = await cli(['tasks', 'run-batch', '-'], { input: 'first prompt\n\nsecond prompt\n' });
    expect(result.exitCode, result.stderr).toBe(0);
    const out = jsonLines(result.stdout);
    expect(out.map((o) => [o.line, o.status])).toEqual([
      [1, 'created'],
      [3, 'created'],
    ]);
  });

  it('exits with the worst outcome: a failed task is 5, and its error is on its line', async () => {
    const file = inputFile(['fine', 'this one will [fail]', 'fine too']);
    const result = await cli(['tasks', 'run-batch', file, '--follow', ...FAST]);
    expect(result.exitCode).toBe(5);
    const failed = jsonLines(result.stdout).find((o) => o.line === 2);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('[fail]') });
    expect(result.stderr).toMatch(/2 completed/);
  });

  it('applies --jq and --fields to each outcome line', async () => {
    const file = inputFile(['{"prompt": "a", "key": "first"}', 'this one will [fail]']);
    const filtered = await cli(['tasks', 'run-batch', file, '--follow', ...FAST, '--jq', 'select(.status != "completed") | .line']);
    expect(filtered.exitCode).toBe(5);
    expect(filtered.stdout).toBe('2\n');
    const fields = await cli(['tasks', 'run-batch', file, '--fields', 'line,key']);
    expect(jsonLines(fields.stdout)).toEqual([
      { line: 1, key: 'first' },
      { line: 2, key: null },
    ]);
  });

  it('splits a file across shards: every task in exactly one shard', async () => {
    const file = inputFile(Array.from({ length: 10 }, (_, i) => `shard task ${i}`));
    const lines = [];
    for (const shard of ['1/3', '2/3', '3/3']) {
      const result = await cli(['tasks', 'run-batch', file, '--shard', shard]);
      expect(result.exitCode, result.stderr).toBe(0);
      lines.push(...jsonLines(result.stdout).map((o) => o.line));
      expect(existsSync(`${file}.shard-${shard.replace('/', '-of-')}.ledger`)).toBe(true);
    }
    expect(lines.sort((a, b) => Number(a) - Number(b))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('--shard auto takes the shard from the CI engine (said on stderr), the same lines as --shard I/N, and a rerun gets them again', async () => {
    const file = inputFile(Array.from({ length: 10 }, (_, i) => `auto shard task ${i}`));
    const gitlab = await cli(['tasks', 'run-batch', file, '--shard', 'auto'], { env: { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3' } });
    expect(gitlab.exitCode, gitlab.stderr).toBe(0);
    expect(gitlab.stderr).toContain('Shard 2/3, from GitLab CI (CI_NODE_INDEX=2, CI_NODE_TOTAL=3).');
    expect(jsonLines(gitlab.stdout).map((o) => o.line)).toEqual([2, 5, 8]);
    expect(existsSync(`${file}.shard-2-of-3.ledger`)).toBe(true);
    // The same shard in CircleCI's 0-based terms is the same job: its ledger, nothing created again.
    const before = await taskCount();
    const circle = await cli(['tasks', 'run-batch', file, '--shard', 'auto'], { env: { CIRCLE_NODE_INDEX: '1', CIRCLE_NODE_TOTAL: '3' } });
    expect(jsonLines(circle.stdout).map((o) => [o.line, o.id])).toEqual(jsonLines(gitlab.stdout).map((o) => [o.line, o.id]));
    expect(await taskCount()).toBe(before);
  });

  it('a shard of one (a CI job that is not parallel) is the whole file: the ledger of a plain run, nothing created twice switching between them', async () => {
    const file = inputFile(['only shard one', 'only shard two']);
    const plain = await cli(['tasks', 'run-batch', file]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    const before = await taskCount();
    const runs = [
      await cli(['tasks', 'run-batch', file, '--shard', 'auto'], { env: { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '1' } }),
      await cli(['tasks', 'run-batch', file, '--shard', '1/1']),
      await cli(['tasks', 'run-batch', file, '--shard', 'auto'], { env: { AGENTCTL_SHARD: '1/1' } }),
      await cli(['tasks', 'run-batch', file, '--shard', 'auto'], { env: { AGENTCTL_SHARD_INDEX: '0', AGENTCTL_SHARD_TOTAL: '1' } }),
    ];
    for (const run of runs) expect(jsonLines(run.stdout).map((o) => [o.line, o.id])).toEqual(jsonLines(plain.stdout).map((o) => [o.line, o.id]));
    expect(await taskCount()).toBe(before);
    expect(existsSync(`${file}.shard-1-of-1.ledger`)).toBe(false);
  });

  it('--follow states its polling plan, with the --max-rate that creates and polls share', async () => {
    const file = inputFile(['rated one', 'rated two', 'rated three']);
    const result = await cli(['tasks', 'run-batch', file, '--follow', '--max-rate', '200', ...FAST]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('Following: each task is polled once created, then every 0.05s; at most 200 requests/s and 4 in flight, creates and polls together.');
    expect(jsonLines(result.stdout)).toHaveLength(3);
    expect((await cli(['tasks', 'run-batch', file, '--max-rate', '0'])).exitCode).toBe(2);
  });

  it('--webhook-listen: one listener for the batch; a task whose webhook comes costs one poll, for its result', async () => {
    const log: string[] = [];
    const hooked = await startEmulator({ port: 0, taskDurationMs: 100, log: (line) => log.push(line) });
    try {
      const file = inputFile(Array.from({ length: 20 }, (_, i) => (i === 3 ? 'hooked task [fail]' : `hooked task ${i}`)));
      const result = await against(hooked.baseUrl)(['tasks', 'run-batch', file, '--webhook-listen', '--fallback-interval', '30', '--concurrency', '4']);
      expect(result.exitCode, result.stderr).toBe(5);
      const out = jsonLines(result.stdout);
      expect(out).toHaveLength(20);
      expect(out.filter((o) => o.status === 'completed')).toHaveLength(19);
      expect(result.stderr).toMatch(/Listening for the tasks' webhooks at http:\/\/127\.0\.0\.1:\d+\//);
      expect(result.stderr).toContain('polled only every 30s until it comes');
      expect(log.filter((line) => line.startsWith('POST /api/v1/tasks/browser-use/ '))).toHaveLength(20);
      expect(log.filter((line) => line.startsWith('GET '))).toHaveLength(20); // one per task: none before its webhook
      expect(log.filter((line) => line.startsWith('webhook ')).length).toBe(20);
      expect((await cli(['tasks', 'run-batch', file, '--public-url', 'https://tunnel.example'])).stderr).toContain('go with --webhook-listen');
    } finally {
      await hooked.close();
    }
  });

  it('--webhook-listen on tasks that end in a burst, their webhooks queued 2 at a time by the service: every one comes, none is polled twice', async () => {
    const log: string[] = [];
    const hooked = await startEmulator({ port: 0, taskDurationMs: 300, webhookConcurrency: 2, log: (line) => log.push(line) });
    try {
      const file = inputFile(Array.from({ length: 200 }, (_, i) => `burst task ${i}`));
      // A webhook that did not come would be polled after 30 s: past the test's timeout.
      const result = await against(hooked.baseUrl)(['tasks', 'run-batch', file, '--webhook-listen', '--fallback-interval', '30', '--concurrency', '16']);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(jsonLines(result.stdout).filter((o) => o.status === 'completed')).toHaveLength(200);
      expect(log.filter((line) => /^webhook \S+ -> \S+ answered 200$/.test(line))).toHaveLength(200);
      expect(log.filter((line) => line.startsWith('GET '))).toHaveLength(200); // the result, once the webhook came
    } finally {
      await hooked.close();
    }
  });

  it('--shard auto outside a parallel CI job exits 2 before any request, naming what it looked for', async () => {
    const file = inputFile(['one', 'two']);
    const before = await taskCount();
    const result = await cli(['tasks', 'run-batch', file, '--shard', 'auto'], { env: { GITHUB_ACTIONS: 'true' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/no CI engine says which shard this job is; looked for AGENTCTL_SHARD .*CI_NODE_INDEX/);
    expect(await taskCount()).toBe(before);
  });

  it('rides out server faults mid-batch: 429 pauses and retries, a reset after sending is recorded as unknown and never re-sent blindly', async () => {
    let rejecting = true;
    let resetting = true;
    const proxy = await faultyProxy((request, creates) => {
      if (creates === 3) return (res) => sendJson(res, 429, { detail: 'slow down' }, { 'retry-after': '0.2' });
      if (request.body.includes('reset me') && resetting) return 'reset-after-forward';
      if (request.body.includes('reject me') && rejecting) return (res) => sendJson(res, 400, { prompt: ['rejected by the service'] });
      return 'forward';
    });
    try {
      const lines = Array.from({ length: 12 }, (_, i) => (i === 5 ? 'please reset me' : i === 8 ? 'please reject me' : `fault task ${i}`));
      const file = inputFile(lines);
      const before = await taskCount();
      const first = await proxy.cli(['tasks', 'run-batch', file, '--concurrency', '2', '--follow', ...FAST]);
      expect(first.exitCode).toBe(1); // an unknown outcome is 1, as documented; 8 is for a service never reached
      const out = jsonLines(first.stdout);
      expect(out).toHaveLength(12);
      expect(out.find((o) => o.line === 6)).toMatchObject({ status: 'unknown', id: null });
      const rejected = out.filter((o) => o.status === 'rejected');
      expect(rejected).toHaveLength(1);
      expect(rejected[0]?.error).toContain('rejected by the service');
      expect(out.filter((o) => o.status === 'completed')).toHaveLength(10);
      // The reset create did reach the emulator: 11 tasks exist (10 + the unknown one).
      expect(await taskCount()).toBe(before + 11);
      expect(first.stderr).toContain('line 6: unknown');

      rejecting = false;
      // Rerun: the rejected line is sent again, the unknown one is not (reported again), nothing doubles.
      const second = await proxy.cli(['tasks', 'run-batch', file, '--concurrency', '2', '--follow', ...FAST]);
      expect(await taskCount()).toBe(before + 12);
      const again = jsonLines(second.stdout);
      expect(again.find((o) => o.line === 6)).toMatchObject({ status: 'unknown' });
      expect(again.find((o) => o.line === 6)?.error).toContain('--retry-unknown');
      expect(again.filter((o) => o.status === 'completed')).toHaveLength(11);
      expect(second.exitCode).toBe(1); // the worst outcome: unknown

      // Checked, and it should go again: --retry-unknown sends the unknown line, once.
      resetting = false;
      const third = await proxy.cli(['tasks', 'run-batch', file, '--retry-unknown']);
      expect(third.exitCode, third.stderr).toBe(0);
      expect(await taskCount()).toBe(before + 13);
      expect(jsonLines(third.stdout).find((o) => o.line === 6)).toMatchObject({ status: 'created' });
      await proxy.cli(['tasks', 'run-batch', file]);
      expect(await taskCount()).toBe(before + 13);
    } finally {
      await proxy.close();
    }
  });

  it('a big batch (2,000 lines, sent through a connection pool) creates every line exactly once; a rerun creates nothing', async () => {
    const file = inputFile(Array.from({ length: 2000 }, (_, i) => JSON.stringify({ prompt: `pooled task ${i}`, key: `p${i}` })));
    const before = await taskCount();
    const result = await cli(['tasks', 'run-batch', file, '--concurrency', '16']);
    expect(result.exitCode, result.stderr).toBe(0);
    const out = jsonLines(result.stdout) as { line: number; key: string; id: string; status: string }[];
    expect(out).toHaveLength(2000);
    expect(new Set(out.map((line) => line.id)).size).toBe(2000);
    expect(out.every((line) => line.status === 'created' && line.key === `p${line.line - 1}`)).toBe(true);
    expect(await taskCount()).toBe(before + 2000);
    const records = readFileSync(`${file}.ledger`, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { state: string });
    expect(records.filter((record) => record.state === 'created')).toHaveLength(2000);

    const rerun = await cli(['tasks', 'run-batch', file, '--concurrency', '16']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(new Set((jsonLines(rerun.stdout) as { id: string }[]).map((line) => line.id))).toEqual(new Set(out.map((line) => line.id)));
    expect(await taskCount()).toBe(before + 2000);
  });

  it('stops on Ctrl-C mid-batch (exit 130, how to resume), and the rerun creates each task exactly once', async () => {
    const interrupt = new AbortController();
    const proxy = await faultyProxy((_request, creates) => {
      if (creates === 40) interrupt.abort('SIGINT');
      return 'forward';
    });
    try {
      const file = inputFile(Array.from({ length: 200 }, (_, i) => `interrupted task ${i}`));
      // A ledger of its own, in a folder whose name needs quoting: the rerun command must name it.
      const ledger = join(tempDir(), "batch's ledger");
      const before = await taskCount();
      const first = await proxy.cli(['tasks', 'run-batch', file, '--ledger', ledger, '--concurrency', '4', '--follow', ...FAST], { signal: interrupt.signal });
      expect(first.exitCode).toBe(130);
      expect(first.stderr).toMatch(/Rerun the same command/);
      expect(first.stderr).toContain(`agentctl tasks run-batch ${file} --ledger '${ledger.replace("'", "'\\''")}' --follow`);
      const createdFirst = (await taskCount()) - before;
      expect(createdFirst).toBeGreaterThanOrEqual(40);
      expect(createdFirst).toBeLessThan(200);

      const second = await proxy.cli(['tasks', 'run-batch', file, '--ledger', ledger, '--concurrency', '4', '--follow', ...FAST]);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(await taskCount()).toBe(before + 200);
      const out = jsonLines(second.stdout);
      expect(out).toHaveLength(200);
      expect(out.every((o) => o.status === 'completed')).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('shows progress (counts, rate, ETA) on a terminal stderr; stdout stays JSON', async () => {
    const file = inputFile(Array.from({ length: 30 }, (_, i) => `progress task ${i}`));
    const result = await cli(['tasks', 'run-batch', file, '--follow', ...FAST], { terminal: { stderrIsTTY: true, stdoutIsTTY: false } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('\r\x1b[K');
    expect(result.stderr).toMatch(/\d+\/30 tasks .*\/s/);
    expect(jsonLines(result.stdout)).toHaveLength(30);
    const piped = await cli(['tasks', 'run-batch', file]);
    expect(piped.stderr).not.toContain('\x1b[K');
  });

  it('stops at once when the service cannot be reached (exit 8) or the key is refused (exit 3)', async () => {
    const file = inputFile(['one', 'two', 'three', 'four']);
    // Nothing listens on this machine's port: no backoff, no retry (a restart after creates would be retried).
    const clock = new FakeClock();
    const down = await against('http://127.0.0.1:9/api/v1')(['tasks', 'run-batch', file, '--concurrency', '1', '--ledger', `${file}.down`], { clock });
    expect(down.exitCode).toBe(8);
    expect(clock.sleeps).toEqual([]);
    expect(jsonLines(down.stdout)).toEqual([expect.objectContaining({ line: 1, status: 'rejected' })]);
    const badKey = await against(emulator.baseUrl, 'wrong-key')(['tasks', 'run-batch', file, '--concurrency', '1']);
    expect(badKey.exitCode).toBe(3);
    expect(jsonLines(badKey.stdout)).toHaveLength(1);
  });

  it('sends nothing when the ledger cannot be written (exit 2, which path, how to fix)', async () => {
    const file = inputFile(['one', 'two']);
    const before = await taskCount();
    const result = await cli(['tasks', 'run-batch', file, '--ledger', join(tempDir(), 'missing-folder', 'x.ledger')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cannot write the ledger .*x\.ledger: ENOENT/);
    expect(result.stderr).toContain('--ledger PATH');
    expect(await taskCount()).toBe(before);
  });

  it('refuses a ledger written for another input', async () => {
    const file = inputFile(['one', 'two']);
    expect((await cli(['tasks', 'run-batch', file])).exitCode).toBe(0);
    writeFileSync(file, 'one\nchanged\n');
    const result = await cli(['tasks', 'run-batch', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/does not match this input: line 2 has changed/);
    expect(readFileSync(`${file}.ledger`, 'utf8')).toContain('"state":"created"');
  });

  it('a second run on a ledger in use exits 2 before any request: 300 lines are created once, not twice', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let creates = 0;
    const proxy = await faultyProxy(() => {
      creates++;
      return (res) => void held.then(() => sendJson(res, 503, { detail: 'not now' }));
    });
    try {
      const file = inputFile(Array.from({ length: 300 }, (_, i) => `locked task ${i}`));
      const ledger = `${file}.ledger`;
      const first = proxy.cli(['tasks', 'run-batch', file, '--concurrency', '4']);
      while (creates === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await cli(['tasks', 'run-batch', file]);
      expect(second.exitCode).toBe(2);
      expect(second.stderr).toMatch(/the ledger .*tasks\.jsonl\.ledger is in use by another run \(pid \d+ on this host, since /);
      expect(second.stdout).toBe('');
      release();
      expect((await first).exitCode).toBe(1); // its creates failed (503: unknown); what matters is the lock
      expect(existsSync(`${ledger}.lock`)).toBe(false); // let go at the end
    } finally {
      await proxy.close();
    }
  });

  it('a run whose lock is taken over meanwhile (it was stopped for long) creates nothing more and exits 2 with how to resume', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let creates = 0;
    const proxy = await faultyProxy(() => (++creates === 1 ? (res) => void held.then(() => sendJson(res, 503, { detail: 'not now' })) : 'forward'));
    try {
      const file = inputFile(Array.from({ length: 50 }, (_, i) => `fenced task ${i}`));
      const lock = `${file}.ledger.lock`;
      const first = proxy.cli(['tasks', 'run-batch', file, '--concurrency', '1']);
      while (creates === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      // Another run took the ledger over while this one was held up.
      const theirs = JSON.stringify({ pid: 4242, host: 'ci-runner-7', started: '2026-11-25T22:00:00.000Z', token: 'theirs' });
      writeFileSync(lock, theirs);
      // Held up longer than a create may go out on an old check of the lock (10 ms): the lines
      // recorded meanwhile check it again.
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      const result = await first;
      expect(result.exitCode).toBe(2);
      expect(creates).toBe(1); // the create in flight, and no other
      expect(result.stderr).toContain("is no longer this run's (it is held by pid 4242 on host ci-runner-7, since 2026-11-25T22:00:00.000Z now): this run sends nothing more");
      expect(result.stderr).toMatch(/Rerun the same command[^\n]*\n\s+agentctl tasks run-batch /);
      expect(readFileSync(lock, 'utf8')).toBe(theirs); // the other run's lock stays
    } finally {
      await proxy.close();
    }
  });
});
