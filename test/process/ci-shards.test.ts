import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { eventually } from '../helpers/api.js';
import { BIN, childEnv, tempDir } from '../helpers/cli.js';
import { jsonLines } from '../helpers/json-lines.js';

// A batch as CI runs it: 4 shard jobs at once, each with its engine's own variables, against one
// service; one job is killed midway and retried; then the report job joins the shards.
const LINES = 160;
const ENGINES: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'github', env: { GITHUB_ACTIONS: 'true', AGENTCTL_SHARD_INDEX: '0', AGENTCTL_SHARD_TOTAL: '4' } },
  { name: 'gitlab', env: { GITLAB_CI: 'true', CI_NODE_INDEX: '2', CI_NODE_TOTAL: '4' } },
  { name: 'buildkite', env: { BUILDKITE: 'true', BUILDKITE_PARALLEL_JOB: '2', BUILDKITE_PARALLEL_JOB_COUNT: '4' } },
  { name: 'kubernetes', env: { JOB_COMPLETION_INDEX: '3', AGENTCTL_SHARD_TOTAL: '4' } },
];

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 40, latencyMs: 5 });
});
afterAll(() => emulator.close());

/** Starts one shard job: stdout to its own file, as CI keeps it. */
function shardJob(dir: string, input: string, engine: (typeof ENGINES)[number]) {
  const out = openSync(join(dir, `results-${engine.name}.jsonl`), 'w');
  const child = spawn(process.execPath, [BIN, 'tasks', 'run-batch', input, '--shard', 'auto', '--concurrency', '2', '--follow', '--interval', '0.05'], {
    stdio: ['ignore', out, 'pipe'],
    env: childEnv(dir, { CI: 'true', AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key', ...engine.env }),
  });
  closeSync(out);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

const createdIn = (ledger: string) => (existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter((line) => line.includes('"state":"created"')).length : 0);

describe('a batch over 4 CI shards', () => {
  it('with one shard killed midway and retried: no line created twice, every line reported once', async () => {
    const dir = tempDir();
    const input = join(dir, 'tasks.jsonl');
    writeFileSync(input, `${Array.from({ length: LINES }, (_, i) => JSON.stringify({ prompt: `ci shard task ${i + 1}`, key: `k${i + 1}` })).join('\n')}\n`);

    const jobs = ENGINES.map((engine) => shardJob(dir, input, engine));
    // The GitLab job (CI_NODE_INDEX=2: shard 2/4) dies once it has created some of its tasks.
    const victimLedger = `${input}.shard-2-of-4.ledger`;
    await eventually(() => (createdIn(victimLedger) >= 5 ? true : undefined), 20_000, 'the GitLab shard creating tasks');
    jobs[1]?.child.kill('SIGKILL');
    const codes = await Promise.all(jobs.map((job) => job.exit));
    expect(codes).toEqual([0, null, 0, 0]);
    expect(jobs[0]?.stderr()).toContain('Shard 1/4, from AGENTCTL_SHARD_INDEX=0, AGENTCTL_SHARD_TOTAL=4.');
    expect(jobs[2]?.stderr()).toContain('Shard 3/4, from Buildkite (BUILDKITE_PARALLEL_JOB=2, BUILDKITE_PARALLEL_JOB_COUNT=4)');
    expect(jobs[3]?.stderr()).toContain('Shard 4/4, from Kubernetes Indexed Job (JOB_COMPLETION_INDEX=3, AGENTCTL_SHARD_TOTAL=4)');
    expect(existsSync(`${victimLedger}.lock`)).toBe(true); // left behind by the killed job

    // The retried job: same variables, same lines, takes over the lock its dead predecessor left.
    const retry = shardJob(dir, input, ENGINES[1] ?? ENGINES[0]!);
    const retryCode = await retry.exit;
    expect(retry.stderr()).toContain('Shard 2/4, from GitLab CI (CI_NODE_INDEX=2, CI_NODE_TOTAL=4)');
    expect(retry.stderr()).toMatch(/Took over the lock of .* which no longer runs/);
    // A create in flight when the job died may or may not have reached the service, and the lines
    // recorded to go next cannot be told from them: those lines are "unknown" (exit 1), never sent
    // again blindly. Every other line is on the service exactly once.
    const unknown = new Set(jsonLines(readFileSync(join(dir, 'results-gitlab.jsonl'), 'utf8')).filter((line) => line.status === 'unknown').map((line) => line.key));
    expect(unknown.size).toBeLessThanOrEqual(8); // at most 4 lines under way per request in flight (--concurrency 2)
    expect(retryCode, retry.stderr()).toBe(unknown.size > 0 ? 1 : 0);
    const onService = new Map<string, number>();
    for (const task of emulator.state.tasks.values()) if (task.prompt?.startsWith('ci shard task ')) onService.set(task.prompt, (onService.get(task.prompt) ?? 0) + 1);
    for (let line = 1; line <= LINES; line++) {
      const times = onService.get(`ci shard task ${line}`) ?? 0;
      if (unknown.has(`k${line}`)) expect(times, `line ${line}`).toBeLessThanOrEqual(1);
      else expect(times, `line ${line}`).toBe(1);
    }

    const outputs = ENGINES.map((engine) => join(dir, `results-${engine.name}.jsonl`));
    const ledgers = [1, 2, 3, 4].map((shard) => `${input}.shard-${shard}-of-4.ledger`);
    const report = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'tasks', 'batch-report', ...outputs, ...ledgers, '--input', input, '--junit', join(dir, 'batch.xml')], {
        env: { PATH: process.env.PATH, HOME: dir },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });
    expect(report.code, report.stderr).toBe(unknown.size > 0 ? 1 : 0);
    const lines = jsonLines(report.stdout);
    expect(lines.map((line) => line.line)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    expect(lines.filter((line) => line.status !== 'completed').map((line) => [line.key, line.status])).toEqual([...unknown].map((key) => [key, 'unknown']));
    expect(new Set(lines.filter((line) => line.id).map((line) => line.id)).size).toBe(LINES - unknown.size);
    expect(report.stderr).toContain(`${LINES}/${LINES} lines: `);
    expect(readFileSync(join(dir, 'batch.xml'), 'utf8').match(/<testcase /g)).toHaveLength(LINES);
  });
});
