import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const FAST = ['--interval', '0.05'];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 50 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const taskCount = async () => (await apiRequest<{ count: number }>(emulator.baseUrl, 'GET', '/tasks/browser-use/')).count;
const jsonLines = (text: string) => text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

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

    // The same command again creates nothing and reports the same ids.
    const again = await cli(['tasks', 'run-batch', file, '--follow', '--concurrency', '16', ...FAST], { timeoutMs: 60_000 });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await taskCount()).toBe(before + 1000);
    const ids = (o: Record<string, unknown>[]) => o.map((x) => `${x.line}:${x.id}`).sort();
    expect(ids(jsonLines(again.stdout))).toEqual(ids(out));
  });
});
