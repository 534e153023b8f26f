// A recording killed midway (SIGKILL: no handler runs) leaves a valid cassette up to its last line.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { BIN, childEnv, tempDir } from '../helpers/cli.js';

const KEY = 'killed-recording-key-91b2';
let emulator: RunningEmulator;
let answered = 0;
const waiting = new Set<() => void>();

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    apiKey: KEY,
    taskDurationMs: 600_000,
    log: () => {
      answered++;
      for (const wake of waiting) wake();
    },
  });
});
afterAll(() => emulator.close());

/** Resolves once the emulator has answered `count` requests. */
const answeredAtLeast = (count: number) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (answered < count) return;
      waiting.delete(check);
      resolve();
    };
    waiting.add(check);
    check();
  });

it('a recording killed with SIGKILL mid-run is a cassette of whole lines', async () => {
  const task = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'runs for ten minutes' }, KEY);
  const file = join(tempDir(), 'killed.jsonl');
  const home = tempDir();
  const start = answered;
  const child = spawn(process.execPath, [BIN, 'tasks', 'wait', task.id, '--interval', '0.05', '--record', file], {
    env: childEnv(home, { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY }),
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  // A run that ended by itself (a usage error) would leave nothing to kill: the race says so at once.
  const early = await Promise.race([answeredAtLeast(start + 12).then(() => undefined), exited.then(() => 'it ended before it was killed')]);
  expect(early).toBeUndefined();
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  const text = readFileSync(file, 'utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  const lines = text.split('\n').slice(0, -1);
  expect(lines.length).toBeGreaterThanOrEqual(10);
  for (const line of lines) expect(JSON.parse(line)).toMatchObject({ agentctl: 1, method: 'GET', path: `/tasks/browser-use/${task.id}/`, status: 200 });
  expect(text).not.toContain(KEY);
});
