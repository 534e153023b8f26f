import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { against, tempDir } from '../helpers/cli.js';
import { jsonLines } from '../helpers/json-lines.js';

// A disk that fills up during a batch: the ledger's `sending` records go through, the first write of
// a `created` one fails, and every later one.
const disk = vi.hoisted(() => ({ ledgerFd: -1, failed: false, full: true }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = ((path: string, ...rest: never[]) => {
    const fd = (fs.openSync as (...args: unknown[]) => number)(path, ...rest);
    if (String(path).endsWith('.ledger')) disk.ledgerFd = fd;
    return fd;
  }) as typeof fs.openSync;
  const writeSync = ((fd: number, ...rest: never[]) => {
    if (fd === disk.ledgerFd && disk.full) disk.failed ||= String(rest[0]).includes('"created"');
    if (fd === disk.ledgerFd && disk.failed) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
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
  it('still prints the id of every task it created, says the ledger could not be written, and exits 2', async () => {
    const file = join(tempDir(), 'tasks.txt');
    writeFileSync(file, 'Check example.com\n');
    const result = await against(emulator.baseUrl)(['tasks', 'run-batch', file]);
    expect(result.exitCode).toBe(2);
    const lines = jsonLines(result.stdout) as { line: number; id: string; status: string }[];
    expect(lines).toEqual([expect.objectContaining({ line: 1, status: 'created', id: expect.stringMatching(/^[0-9a-f-]{36}$/) })]);
    expect(result.stderr).toMatch(/the ledger .* could not be written/);
    expect(result.stderr).toMatch(/cannot write the ledger .*ENOSPC/);
    // stdout may be on the same full disk: the ids the ledger lacks are on stderr too.
    expect(result.stderr).toContain(`Created, but not in the ledger (1):\n  line 1: ${lines[0]?.id}`);
  });

  it('when the failure stops the creates, waits for those in flight, lists the tasks the ledger lacks and how to record them; recorded, a rerun reuses them', async () => {
    Object.assign(disk, { ledgerFd: -1, failed: false }); // the last test's fd number may be another file's now
    const file = join(tempDir(), 'tasks.txt');
    writeFileSync(file, 'Check example.com\nCheck example.org\nCheck example.net\n');
    const result = await against(emulator.baseUrl)(['tasks', 'run-batch', file, '--concurrency', '2']);
    expect(result.exitCode, result.stderr).toBe(2);
    const created = jsonLines(result.stdout) as { line: number; id: string }[];
    expect(created.map((line) => line.line).sort(), result.stderr).toEqual([1, 2]);
    // Both creates in flight finished before the summary, and both are listed: the ledger has neither.
    for (const { line, id } of created) expect(result.stderr).toContain(`  line ${line}: ${id}`);
    expect(result.stderr).toContain('Created, but not in the ledger (2)');
    expect(result.stderr).not.toContain('nothing is created twice');
    expect(result.stderr).toMatch(/do not send them again with --retry-unknown/);

    // The command it gives, as a shell runs it: the records appended, a rerun reuses both tasks.
    const printf = /^ {2}printf '%s\\n' (.*) >> (\S+)$/m.exec(result.stderr);
    expect(printf?.[2]).toBe(`${file}.ledger`);
    const records = [...(printf?.[1] ?? '').matchAll(/'([^']*)'/g)].map((match) => match[1]);
    appendFileSync(`${file}.ledger`, records.map((record) => `${record}\n`).join(''));
    Object.assign(disk, { full: false, failed: false });
    const rerun = await against(emulator.baseUrl)(['tasks', 'run-batch', file]);
    disk.full = true;
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const ids = new Map((jsonLines(rerun.stdout) as { line: number; id: string }[]).map((line) => [line.line, line.id]));
    for (const { line, id } of created) expect(ids.get(line)).toBe(id);
    expect(ids.size).toBe(3);
  });
});
