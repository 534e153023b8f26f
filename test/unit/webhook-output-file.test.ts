import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonLinesFile, type AppendTarget } from '../../src/webhooks/output-file.js';
import { tempDir } from '../helpers/cli.js';

/** A file whose writes and fsyncs are recorded, and can be held or made to fail. */
function fakeTarget(options: { maxChunk?: number; failSync?: boolean } = {}) {
  const log: string[] = [];
  let data = '';
  let synced = '';
  let release: (() => void) | undefined;
  let holdNext = false;
  const target: AppendTarget = {
    async write(buffer, offset, length) {
      const n = Math.min(length, options.maxChunk ?? length);
      data += buffer.subarray(offset, offset + n).toString();
      log.push(`write ${n}`);
      return { bytesWritten: n };
    },
    async sync() {
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
      if (options.failSync) throw new Error('EIO: disk gone');
      synced = data;
      log.push('sync');
    },
    async close() {
      log.push('close');
    },
  };
  return {
    target,
    log,
    synced: () => synced,
    hold: () => (holdNext = true),
    release: () => release?.(),
  };
}

describe('JsonLinesFile', () => {
  it('resolves an append only after its line is written and fsynced', async () => {
    const fake = fakeTarget();
    const file = new JsonLinesFile(fake.target, 'events.jsonl');
    fake.hold();
    let done = false;
    const appended = file.append({ a: 1 }).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false); // written, but fsync still under way
    expect(fake.synced()).toBe('');
    fake.release();
    await appended;
    expect(fake.synced()).toBe('{"a":1}\n');
    expect(file.written).toBe(1);
  });

  it('groups lines that arrive during an fsync into one write+fsync, in call order', async () => {
    const fake = fakeTarget();
    const file = new JsonLinesFile(fake.target, 'events.jsonl');
    fake.hold();
    const order: number[] = [];
    const first = file.append({ n: 0 }).then(() => order.push(0));
    await new Promise((resolve) => setImmediate(resolve));
    const rest = Array.from({ length: 20 }, (_, i) => file.append({ n: i + 1 }).then(() => order.push(i + 1)));
    fake.release();
    await Promise.all([first, ...rest]);
    expect(order).toEqual(Array.from({ length: 21 }, (_, i) => i));
    expect(fake.synced().trim().split('\n').map((line) => JSON.parse(line).n)).toEqual(order);
    expect(file.syncs).toBe(2);
  });

  it('finishes partial writes', async () => {
    const fake = fakeTarget({ maxChunk: 3 });
    const file = new JsonLinesFile(fake.target, 'events.jsonl');
    await file.append({ long: 'x'.repeat(20) });
    expect(fake.synced()).toBe(`{"long":"${'x'.repeat(20)}"}\n`);
  });

  it('rejects the lines of a batch whose fsync failed (so no 200 goes out for them)', async () => {
    const file = new JsonLinesFile(fakeTarget({ failSync: true }).target, 'events.jsonl');
    await expect(file.append({ a: 1 })).rejects.toThrow(/EIO/);
    expect(file.written).toBe(0);
  });

  it('waits for pending lines before closing, and refuses lines after', async () => {
    const fake = fakeTarget();
    const file = new JsonLinesFile(fake.target, 'events.jsonl');
    const pending = file.append({ a: 1 });
    await file.close();
    await pending;
    expect(fake.log.at(-1)).toBe('close');
    expect(fake.log).toContain('sync');
    await expect(file.append({ b: 2 })).rejects.toThrow(/closed/);
  });

  it('appends to a real file (mode 0600 when created), keeping earlier lines', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const first = await JsonLinesFile.open(path);
    await Promise.all([first.append({ n: 1 }), first.append({ n: 2 })]);
    await first.close();
    const second = await JsonLinesFile.open(path);
    await second.append({ n: 3 });
    await second.close();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('resolves each append with the byte offset just past its line (where a forward cursor moves)', async () => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(path, '{"earlier":"é"}\n');
    const file = await JsonLinesFile.open(path);
    expect(file.size).toBe(Buffer.byteLength('{"earlier":"é"}\n'));
    const ends = await Promise.all([file.append({ n: 'ü' }), file.append({ n: 2 })]);
    await file.close();
    const text = readFileSync(path);
    expect(ends).toEqual([text.indexOf('{"n":2}'), text.length]);
    expect(file.size).toBe(text.length);
  });

  it.each([
    ['cut short before its line break', '{"received_at":"2026-01-0', '{"received_at":"2026-01-0\n'],
    ['ended by an earlier start, but not JSON', '{"received_at":"2026-01-0\n', '{"received_at":"2026-01-0\n'],
    ['zeros a power cut left', '\0\0\0\0', '\0\0\0\0\n'],
    ['a few bytes of its start', '{"rec', '{"rec\n'],
  ])('sets a torn last line (%s) aside in FILE.torn, so the next event starts on a line of its own', async (_case, torn, kept) => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(path, `{"n":1}\n${torn}`);
    writeFileSync(`${path}.torn`, 'earlier\n');
    const file = await JsonLinesFile.open(path);
    expect(file.torn).toEqual({ bytes: Buffer.byteLength(kept) - 1, path: `${path}.torn` });
    expect(file.size).toBe('{"n":1}\n'.length);
    expect(await file.append({ n: 3 })).toBe('{"n":1}\n{"n":3}\n'.length);
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
    expect(readFileSync(`${path}.torn`, 'utf8')).toBe(`earlier\n${kept}`); // kept, never lost
  });

  it('leaves a log whose last line is whole alone (and a file with one torn line only is emptied)', async () => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}\n\n');
    const whole = await JsonLinesFile.open(path);
    await whole.close();
    expect(whole.torn).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n\n');
    writeFileSync(path, '{"rec');
    const only = await JsonLinesFile.open(path);
    await only.close();
    expect([only.size, only.torn?.bytes, readFileSync(path, 'utf8'), readFileSync(`${path}.torn`, 'utf8')]).toEqual([0, 5, '', '{"rec\n']);
    expect(statSync(`${path}.torn`).mode & 0o777).toBe(0o600); // events may carry results
  });

  it('cuts nothing from a file that is not a log: a last line of its own is refused, or left to a reader', async () => {
    const path = join(tempDir(), 'notes.md');
    writeFileSync(path, '# Notes\nno line break at the end');
    await expect(JsonLinesFile.open(path)).rejects.toThrow(/its last line is not one webhook-listen wrote/);
    writeFileSync(path, '{"n":1}\nnot json, but ended\n');
    const ended = await JsonLinesFile.open(path);
    await ended.close();
    expect(ended.torn).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\nnot json, but ended\n');
  });

  it('cuts a failed batch off again, so later lines and their offsets stay right', async () => {
    const fake = fakeTarget({ failSync: true });
    let truncatedTo: number | undefined;
    const file = new JsonLinesFile({ ...fake.target, truncate: async (length) => void (truncatedTo = length) }, 'events.jsonl', 100);
    await expect(file.append({ a: 1 })).rejects.toThrow(/EIO/);
    expect(truncatedTo).toBe(100);
    expect(file.size).toBe(100);
  });
});
