import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { BIN } from '../helpers/cli.js';

// A real Ctrl-C (SIGINT to the process) in the middle of `conformance --allow-writes`: the command
// stops, removes what it made, says so, and exits 130. In-process runs abort a signal instead
// (test/commands/conformance.test.ts); only a process shows that the signal reaches the cleanup.

let emulator: RunningEmulator;
const requests: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 10 * 60 * 1000, log: (line) => requests.push(line) });
});
afterAll(() => emulator.close());

it('on SIGINT midway through --allow-writes, cleans up what it made and exits 130', async () => {
  const child = spawn(process.execPath, [BIN, 'conformance', '--allow-writes', '--yes'], {
    env: { PATH: process.env.PATH, AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Once the agent exists and a task below it too: the run is midway through its writes.
  await eventually(() => requests.some((line) => /^POST \/api\/v1\/agents\/browser-use\/[0-9a-f-]{36}\/tasks\/ -> 201/.test(line)) || undefined, 30_000, 'a task create');
  child.kill('SIGINT');
  expect(await exited).toBe(130);
  expect(stderr).toContain('Interrupted: removing what this run made (Ctrl-C again stops at once; the next run removes what is left).');
  expect(stdout).toContain('Interrupted: the operations after the one in flight did not run.');
  const left = async (path: string) =>
    (await apiRequest<{ results: Array<{ name?: string; prompt?: string }> }>(emulator.baseUrl, 'GET', `${path}?page_size=100`)).results.filter((record) =>
      `${record.name ?? ''} ${typeof record.prompt === 'string' ? record.prompt : ''}`.includes('agentctl-conformance-'),
    );
  expect([...(await left('/tasks/browser-use/')), ...(await left('/agents/browser-use/')), ...(await left('/agents/'))]).toEqual([]);
});
