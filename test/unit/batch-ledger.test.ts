import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/cli.js';

// The ledger's writes as a full disk or a file-size limit makes them: shorter than asked, or none.
const disk = vi.hoisted(() => ({ maxBytesPerWrite: Infinity }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((fd: number, data: Buffer, offset?: number | null) => {
    const from = offset ?? 0;
    const length = Math.min(data.length - from, disk.maxBytesPerWrite);
    return length === 0 ? 0 : fs.writeSync(fd, data, from, length);
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});
const { Ledger } = await import('../../src/commands/tasks/batch-ledger.js');

beforeEach(() => {
  disk.maxBytesPerWrite = Infinity;
});

describe('run-batch ledger', () => {
  it('writes every byte of a record before the create waiting on it may go out, however short the writes', async () => {
    disk.maxBytesPerWrite = 7;
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path);
    await Promise.all([1, 2, 3].map((line) => ledger.beforeSend({ line, hash: `h${line}`, state: 'sending' })));
    const records = readFileSync(path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { line: number; state: string });
    expect(records.map((record) => [record.line, record.state])).toEqual([
      [1, 'sending'],
      [2, 'sending'],
      [3, 'sending'],
    ]);
    expect(ledger.close()).toBeUndefined();
  });

  it('a write that takes nothing fails the creates waiting on it, and every later one, and close() answers it', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path);
    disk.maxBytesPerWrite = 0;
    await expect(ledger.beforeSend({ line: 1, hash: 'h1', state: 'sending' })).rejects.toThrow(/cannot write the ledger .*tasks\.jsonl\.ledger/);
    disk.maxBytesPerWrite = Infinity;
    await expect(ledger.beforeSend({ line: 2, hash: 'h2', state: 'sending' })).rejects.toThrow(/cannot write the ledger/);
    expect(ledger.close()?.message).toMatch(/cannot write the ledger/);
  });
});
