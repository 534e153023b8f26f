import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { against, tempDir } from '../helpers/cli.js';
import { jsonLines } from '../helpers/json-lines.js';
import { patchFs } from '../helpers/patch-fs.js';

// A disk that fills up during a batch: the ledger's `sending` records go through, the first write of
// a `created` one fails, and every later one.
const disk = { ledgerFd: -1, failed: false, full: true };
patchFs((fs) => ({
  openSync: ((path: string, ...rest: never[]) => {
    const fd = (fs.openSync as (...args: unknown[]) => number)(path, ...rest);
    if (String(path).endsWith('.ledger')) disk.ledgerFd = fd;
    return fd;
  }) as typeof fs.openSync,
  writeSync: ((fd: number, ...rest: never[]) => {
    if (fd === disk.ledgerFd && disk.full) disk.failed ||= String(rest[0]).includes('"created"');
    if (fd === disk.ledgerFd && disk.failed) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return (fs.writeSync as (...args: unknown[]) => number)(fd, ...rest);
  }) as typeof fs.writeSync,
}));

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

  it('when the failure stops the creates, waits for those in flight, lists the tasks the ledger lacks and how to record them; recorded, a rerun reuses them and sends the rest', async () => {
    Object.assign(disk, { ledgerFd: -1, failed: false }); // the last test's fd number may be another file's now
    const file = join(tempDir(), 'tasks.txt');
    writeFileSync(file, Array.from({ length: 40 }, (_, i) => `Check example.com/${i}\n`).join(''));
    const result = await against(emulator.baseUrl)(['tasks', 'run-batch', file, '--concurrency', '2']);
    expect(result.exitCode, result.stderr).toBe(2);
    const created = jsonLines(result.stdout) as { line: number; id: string }[];
    // The failure stopped the creates: those in flight finished, no other went out.
    expect(created.length, result.stderr).toBeGreaterThan(0);
    expect(created.length, result.stderr).toBeLessThan(40);
    for (const { line, id } of created) expect(result.stderr).toContain(`  line ${line}: ${id}`);
    expect(result.stderr).toContain(`Created, but not in the ledger (${created.length})`);
    expect(result.stderr).not.toContain('nothing is created twice');
    expect(result.stderr).toMatch(/do not send them again with --retry-unknown/);

    // The command it gives, as a shell runs it: the records appended, a rerun reuses those tasks.
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
    // Every other line sent now, those recorded as being sent but never sent included (none unknown).
    expect(ids.size, rerun.stderr).toBe(40);
  });
});
