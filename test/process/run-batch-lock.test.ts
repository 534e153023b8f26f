import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { eventually } from '../helpers/api.js';
import { BIN, childEnv, tempDir } from '../helpers/cli.js';

// The ledger lock against real signals: a run stopped with Ctrl-Z keeps its lock however long it is
// stopped, and Ctrl-C (once while the input is checked, or twice mid-batch) lets it go.
let emulator: RunningEmulator;
beforeAll(async () => {
  // Slow answers: the runs overlap, and creates are in flight when they are signalled.
  emulator = await startEmulator({ port: 0, latencyMs: 3000 });
});
afterAll(() => emulator.close());

function runBatch(dir: string, input: string) {
  const child = spawn(process.execPath, [BIN, 'tasks', 'run-batch', input], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: childEnv(dir, { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' }),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

function input(lines: number): string {
  const dir = tempDir();
  const path = join(dir, 'prompts.txt');
  writeFileSync(path, `${Array.from({ length: lines }, (_, i) => `lock task ${i}`).join('\n')}\n`);
  return path;
}
const holds = (lock: string, pid?: number) => existsSync(lock) && readFileSync(lock, 'utf8').includes(`"pid":${pid},`);
const sending = (ledger: string) => existsSync(ledger) && readFileSync(ledger, 'utf8').includes('"sending"');

describe('run-batch ledger lock, with real signals', () => {
  it('a run stopped with Ctrl-Z (SIGSTOP) keeps its lock, however long untouched: a second run exits 2 at once', async () => {
    const file = input(40);
    const lock = `${file}.ledger.lock`;
    const first = runBatch(tempDir(), file);
    try {
      // Until the lock names its run: stopped between creating the file and writing it, the run would
      // leave a lock that names nobody, which a second run rightly takes over once it stays untouched.
      await eventually(() => holds(lock, first.child.pid) || undefined, 10_000, 'the first run holding the lock');
      first.child.kill('SIGSTOP');
      const old = new Date(Date.now() - 120_000); // as if stopped for 2 minutes
      utimesSync(lock, old, old);
      const second = runBatch(tempDir(), file);
      expect(await second.exit).toBe(2);
      expect(second.stderr()).toContain(`is in use by another run (pid ${first.child.pid} on this host`);
      expect(second.stderr()).toContain(`kill -CONT ${first.child.pid}`);
      expect(second.stderr()).not.toContain('checking for');
    } finally {
      first.child.kill('SIGKILL');
      first.child.kill('SIGCONT');
      await first.exit;
    }
  });

  it('Ctrl-C while a long input is checked exits 130 and lets the lock go', async () => {
    const file = input(400_000);
    const lock = `${file}.ledger.lock`;
    const run = runBatch(tempDir(), file);
    await eventually(() => existsSync(lock) || undefined, 10_000, 'the run holding the lock');
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(`${file}.ledger`)).toBe(false); // nothing was sent
  });

  it('a second Ctrl-C, which exits without waiting for the creates in flight, lets the lock go too', async () => {
    const file = input(40);
    const run = runBatch(tempDir(), file);
    await eventually(() => sending(`${file}.ledger`) || undefined, 10_000, 'creates in flight');
    // Signals of one kind do not queue: Ctrl-C again until it exits (the first alone would wait 3 s for the creates).
    const again = setInterval(() => run.child.kill('SIGINT'), 50);
    run.child.kill('SIGINT');
    try {
      expect(await run.exit).toBe(130);
    } finally {
      clearInterval(again);
    }
    expect(existsSync(`${file}.ledger.lock`)).toBe(false);
  });
});
