import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { against, tempDir } from '../helpers/cli.js';
import { jsonLines } from '../helpers/json-lines.js';

// A disk that fills up during a batch: the ledger's first write goes through, every later one fails.
const disk = vi.hoisted(() => ({ ledgerFd: -1, ledgerWrites: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = ((path: string, ...rest: never[]) => {
    const fd = (fs.openSync as (...args: unknown[]) => number)(path, ...rest);
    if (String(path).endsWith('.ledger')) disk.ledgerFd = fd;
    return fd;
  }) as typeof fs.openSync;
  const writeSync = ((fd: number, ...rest: never[]) => {
    if (fd === disk.ledgerFd && ++disk.ledgerWrites > 1) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return (fs.writeSync as (...args: unknown[]) => number)(fd, ...rest);
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, openSync, writeSync }, openSync, writeSync };
});

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 50 });
});
afterAll(() => emulator.close());

describe('tasks run-batch, when the ledger stops being written', () => {
  it('still prints the id of every task it created, says the ledger is incomplete, and exits 2', async () => {
    const file = join(tempDir(), 'tasks.txt');
    writeFileSync(file, 'Check example.com\n');
    const result = await against(emulator.baseUrl)(['tasks', 'run-batch', file]);
    expect(result.exitCode).toBe(2);
    const lines = jsonLines(result.stdout) as { line: number; id: string; status: string }[];
    expect(lines).toEqual([expect.objectContaining({ line: 1, status: 'created', id: expect.stringMatching(/^[0-9a-f-]{36}$/) })]);
    expect(result.stderr).toMatch(/ledger is incomplete/);
    expect(result.stderr).toMatch(/cannot write the ledger .*ENOSPC/);
    // stdout may be on the same full disk: the ids the ledger lacks are on stderr too.
    expect(result.stderr).toContain(`Created, but not in the ledger (1):\n  line 1: ${lines[0]?.id}`);
  });
});
