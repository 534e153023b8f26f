import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Ledger } from '../../src/batch/ledger.js';
import { pidRunning, tempDir } from '../helpers/cli.js';
import { patchFs } from '../helpers/patch-fs.js';

// The ledger's writes as a full disk or a file-size limit makes them: shorter than asked, or none.
const disk = { maxBytesPerWrite: Infinity, bytesLeft: Infinity, syncs: 0, held: undefined as undefined | Array<() => void> };
patchFs((fs) => ({
  writeSync: ((fd: number, data: Buffer, offset?: number | null) => {
    const from = offset ?? 0;
    const length = Math.min(data.length - from, disk.maxBytesPerWrite, disk.bytesLeft);
    disk.bytesLeft -= length;
    return length === 0 ? 0 : fs.writeSync(fd, data, from, length);
  }) as typeof fs.writeSync,
  // Counted; with `held` set, a sync ends only when the test says.
  fdatasync: ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
    disk.syncs++;
    fs.fdatasync(fd, (error) => (disk.held ? disk.held.push(() => done(error)) : done(error)));
  }) as typeof fs.fdatasync,
}));

const said: string[] = [];
/** A clock at a fixed time (a lock on disk is never old by it), whose sleeps end at once. */
const fixedClock = { now: () => Date.parse('2026-11-25T21:00:00Z'), sleep: () => Promise.resolve() };
const owner = { process: { pid: process.pid, isRunning: pidRunning, pidSpace: 'test-space' }, clock: fixedClock, say: (message: string) => void said.push(message) };
/** The real time, and a watch that lasts no time: `during` runs while the lock is watched. */
const watching = (during = () => {}) => ({ ...owner, clock: { now: () => Date.now(), sleep: () => Promise.resolve(during()) } });
/** A process id that does not run: a child's once it has ended. */
const deadPid = 2 ** 22 + 12345;

beforeEach(() => {
  disk.maxBytesPerWrite = Infinity;
  disk.bytesLeft = Infinity;
  disk.syncs = 0;
  disk.held = undefined;
  said.length = 0;
});

describe('run-batch ledger', () => {
  it('writes every byte of a record before the create waiting on it may go out, however short the writes', async () => {
    disk.maxBytesPerWrite = 7;
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    await Promise.all([1, 2, 3].map((line) => ledger.beforeSend({ line, hash: `h${line}`, state: 'sending' })));
    const records = readFileSync(path, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { line: number; state: string });
    expect(records.map((record) => [record.line, record.state])).toEqual([
      [1, 'sending'],
      [2, 'sending'],
      [3, 'sending'],
    ]);
    expect(await ledger.close()).toBeUndefined();
  });

  it('a write that takes nothing fails the creates waiting on it, and every later one, and close() answers it', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    disk.maxBytesPerWrite = 0;
    await expect(ledger.beforeSend({ line: 1, hash: 'h1', state: 'sending' })).rejects.toThrow(/cannot write the ledger .*tasks\.jsonl\.ledger/);
    disk.maxBytesPerWrite = Infinity;
    await expect(ledger.beforeSend({ line: 2, hash: 'h2', state: 'sending' })).rejects.toThrow(/cannot write the ledger/);
    expect((await ledger.close())?.message).toMatch(/cannot write the ledger/);
  });

  it('is held by one run at a time: a second open names the holder and fails, until the first lets go', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const first = await Ledger.open(path, owner);
    const lock = JSON.parse(readFileSync(`${path}.lock`, 'utf8')) as { pid: number; host: string; started: string };
    expect(lock).toMatchObject({ pid: process.pid, host: hostname(), started: '2026-11-25T21:00:00.000Z' });
    await expect(Ledger.open(path, owner)).rejects.toThrow(`is in use by another run (pid ${process.pid} on this host, since 2026-11-25T21:00:00.000Z)`);
    await first.close();
    first.unlock();
    expect(existsSync(`${path}.lock`)).toBe(false);
    (await Ledger.open(path, owner)).unlock();
  });

  it('takes over a lock whose process no longer runs on this host, and says so', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), started: '2026-11-25T20:00:00.000Z', pidSpace: 'test-space' }));
    const ledger = await Ledger.open(path, owner);
    expect(said).toEqual([`Took over the lock of ${path} from pid ${deadPid} on this host, since 2026-11-25T20:00:00.000Z, which no longer runs.`]);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    ledger.unlock();
  });

  it("refuses another host's live lock (it cannot tell if that run is alive) and says how to break it", async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: deadPid, host: 'ci-runner-7', started: '2026-11-25T20:00:00.000Z' }));
    const error = (await Ledger.open(path, watching()).then(
      () => undefined,
      (failure: unknown) => failure,
    )) as { message: string; hint: string; exitCode: number };
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`pid ${deadPid} on host ci-runner-7`);
    expect(error.hint).toContain(`rm ${path}.lock`);
  });

  it('takes over a lock nobody touches any more (a crashed run on another host, a container back with the same pid), after watching it', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const lock = `${path}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'ci-runner-7', started: '2026-11-25T20:00:00.000Z' }));
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    // Touched while watched: its run is alive.
    await expect(Ledger.open(path, watching(() => utimesSync(lock, new Date(), new Date())))).rejects.toThrow(/in use by another run/);
    utimesSync(lock, old, old);
    const ledger = await Ledger.open(path, watching());
    expect(said.at(-2)).toMatch(/has not been touched for 12\ds: checking for 15s whether its run is alive/);
    expect(said.at(-1)).toContain('Took over the lock');
    ledger.unlock();
  });

  it('reports a ledger that holds two tasks for one line (two runs at once), and keeps nothing locked', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const records = [
      { line: 1, hash: 'h1', state: 'created', id: 'id-a' },
      { line: 2, hash: 'h2', state: 'created', id: 'id-b' },
      { line: 1, hash: 'h1', state: 'created', id: 'id-c' },
    ];
    writeFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    await expect(Ledger.open(path, owner)).rejects.toThrow(/more than one task for 1 line .*\n {2}line 1: id-a, id-c/);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('refuses what is not a regular file (a device would be read forever or swallow every record)', async () => {
    await expect(Ledger.open('/dev/full', owner)).rejects.toThrow('the ledger /dev/full is not a regular file');
    await expect(Ledger.open('/dev/null', owner)).rejects.toThrow('is not a regular file');
  });

  it('lists the created tasks whose record could not be written', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    disk.maxBytesPerWrite = 0;
    ledger.record({ line: 1, hash: 'h1', state: 'created', id: 'id-1' });
    ledger.flush();
    ledger.record({ line: 2, hash: 'h2', state: 'created', id: 'id-2' });
    expect((await ledger.close())?.message).toMatch(/cannot write the ledger/);
    expect(ledger.unwritten.map((entry) => entry.id)).toEqual(['id-1', 'id-2']);
    ledger.unlock();
  });

  it('lets a create go out only once its record is synced to disk, and syncs the records made meanwhile as one group', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    disk.held = [];
    const sent: number[] = [];
    const first = ledger.beforeSend({ line: 1, hash: 'h1', state: 'sending' }).then(() => sent.push(1));
    await vi.waitFor(() => expect(disk.held).toHaveLength(1), { timeout: 120_000 }); // written, its sync in flight
    const next = [2, 3, 4, 5].map((line) => ledger.beforeSend({ line, hash: `h${line}`, state: 'sending' }).then(() => sent.push(line)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]); // nothing goes out before the sync
    disk.held.shift()?.();
    await first;
    expect(sent).toEqual([1]);
    await vi.waitFor(() => expect(disk.held).toHaveLength(1), { timeout: 120_000 }); // lines 2-5: one write, one sync
    disk.held.shift()?.();
    await Promise.all(next);
    expect(disk.syncs).toBe(2);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(5);
    disk.held = undefined;
    expect(await ledger.close()).toBeUndefined();
    ledger.unlock();
  });

  it('checks its lock with each group: a group whose lock is lost is not written, one that lost it while syncing is not sent', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    const theirs = JSON.stringify({ pid: 4242, host: 'ci-runner-7', started: '2026-11-25T22:00:00.000Z', token: 'theirs' });
    // Taken over while a group syncs: its records are on disk, its creates do not go out.
    disk.held = [];
    const syncing = ledger.beforeSend({ line: 1, hash: 'h1', state: 'sending' });
    await vi.waitFor(() => expect(disk.held).toHaveLength(1), { timeout: 120_000 });
    writeFileSync(`${path}.lock`, theirs);
    disk.held.shift()?.();
    await expect(syncing).rejects.toThrow("is no longer this run's (it is held by pid 4242 on host ci-runner-7");
    disk.held = undefined;
    // The next group is refused before it is written; outcomes of creates already sent are still kept.
    ledger.record({ line: 0, hash: 'h0', state: 'created', id: 'task-0' });
    await expect(ledger.beforeSend({ line: 2, hash: 'h2', state: 'sending' })).rejects.toThrow('this run sends nothing more');
    expect(await ledger.close()).toBeUndefined();
    expect(readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line).line)).toEqual([1, 0]);
    ledger.unlock();
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(theirs);
  });

  it("an `unsent` record takes back a line's `sending` (its create never went out): the next run sends it, not calling it unknown", async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    await Promise.all([1, 2, 3].map((line) => ledger.beforeSend({ line, hash: `h${line}`, state: 'sending' })));
    ledger.record({ line: 1, hash: 'h1', state: 'created', id: 'task-1' });
    ledger.unsent({ line: 2, hash: 'h2', state: 'unsent' });
    expect(await ledger.close()).toBeUndefined();
    ledger.unlock();
    const next = await Ledger.open(path, owner);
    expect(next.entries.get(1)).toMatchObject({ state: 'created', id: 'task-1' });
    expect(next.entries.has(2)).toBe(false); // sent again
    expect(next.entries.get(3)).toMatchObject({ state: 'unknown' }); // it may have gone out
    await next.close();
    next.unlock();
  });

  it("an `unsent` record takes back only its own run's `sending`: a line unknown before (a run killed while creating it) stays unknown, never sent again without --retry-unknown", async () => {
    // Run 1 was killed while creating line 1 (its create may exist), and line 2's create timed out.
    // Run 2, with --retry-unknown, was stopped before either went out (Ctrl-C: the user saw the
    // tasks in `tasks list`). A plain rerun must not send them: they may exist.
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const records = [
      { line: 1, hash: 'h1', state: 'sending' },
      { line: 2, hash: 'h2', state: 'sending' },
      { line: 2, hash: 'h2', state: 'unknown', error: 'timed out', code: 1 },
      { line: 3, hash: 'h3', state: 'sending' },
      { line: 3, hash: 'h3', state: 'rejected', error: 'bad', code: 2 },
      { line: 1, hash: 'h1', state: 'sending' },
      { line: 2, hash: 'h2', state: 'sending' },
      { line: 3, hash: 'h3', state: 'sending' },
      { line: 1, hash: 'h1', state: 'unsent' },
      { line: 2, hash: 'h2', state: 'unsent' },
      { line: 3, hash: 'h3', state: 'unsent' },
    ];
    writeFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const ledger = await Ledger.open(path, owner);
    expect(ledger.entries.get(1)).toMatchObject({ state: 'unknown' });
    expect(ledger.entries.get(2)).toMatchObject({ state: 'unknown', error: 'timed out' });
    expect(ledger.entries.has(3)).toBe(false); // rejected before: sent again
    await ledger.close();
    ledger.unlock();
  });

  it('writes no `unsent` record once its lock is lost: the run that took the ledger over may have sent the line', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    await ledger.beforeSend({ line: 1, hash: 'h1', state: 'sending' });
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 4242, host: 'ci-runner-7', started: '2026-11-25T22:00:00.000Z', token: 'theirs' }));
    ledger.unsent({ line: 1, hash: 'h1', state: 'unsent' });
    expect(await ledger.close()).toBeUndefined();
    ledger.unlock();
    expect(readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line).state)).toEqual(['sending']);
  });

  it('takes back a write the disk filled up halfway: the ledger ends with a whole record, and the next run reads it', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const ledger = await Ledger.open(path, owner);
    await ledger.beforeSend({ line: 1, hash: 'h1', state: 'sending' });
    const before = readFileSync(path, 'utf8');
    disk.bytesLeft = 30;
    ledger.record({ line: 1, hash: 'h1', state: 'created', id: 'task-1' });
    await expect(ledger.beforeSend({ line: 2, hash: 'h2', state: 'sending' })).rejects.toThrow(/cannot write the ledger/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(ledger.unwritten).toEqual([{ line: 1, hash: 'h1', state: 'created', id: 'task-1' }]);
    await ledger.close();
    ledger.unlock();
    disk.bytesLeft = Infinity;
    const next = await Ledger.open(path, owner);
    expect(next.entries.get(1)?.state).toBe('unknown');
    expect(next.entries.has(2)).toBe(false);
    next.unlock();
  });

  it('cuts off a last record torn by a crash, so the records of the next run do not glue onto it; the torn line counts as unknown', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    const whole = [
      { line: 1, hash: 'h1', state: 'sending' },
      { line: 1, hash: 'h1', state: 'created', id: 'task-1' },
      { line: 2, hash: 'h2', state: 'sending' },
    ];
    writeFileSync(path, `${whole.map((record) => JSON.stringify(record)).join('\n')}\n{"line":2,"hash":"h2","state":"created","id":"task-`);
    const ledger = await Ledger.open(path, owner);
    expect(said.join('\n')).toMatch(/last record of the ledger .* was cut off/);
    expect(ledger.entries.get(1)).toMatchObject({ state: 'created', id: 'task-1' });
    // Its id is lost: the line is unknown (never sent again blindly), not waiting to be sent.
    expect(ledger.entries.get(2)).toMatchObject({ state: 'unknown' });
    await ledger.beforeSend({ line: 3, hash: 'h3', state: 'sending' });
    await ledger.close();
    ledger.unlock();
    const next = await Ledger.open(path, owner);
    expect([...next.entries.keys()]).toEqual([1, 2, 3]);
    next.unlock();
  });

  it('keeps a whole last record that lacks its newline (added by hand), and changes nothing in a file that is not a ledger', async () => {
    const path = join(tempDir(), 'tasks.jsonl.ledger');
    writeFileSync(path, JSON.stringify({ line: 1, hash: 'h1', state: 'created', id: 'task-1' }));
    const ledger = await Ledger.open(path, owner);
    await ledger.beforeSend({ line: 2, hash: 'h2', state: 'sending' });
    await ledger.close();
    ledger.unlock();
    expect(readFileSync(path, 'utf8').split('\n').map((text) => (text ? (JSON.parse(text) as { line: number }).line : text))).toEqual([1, 2, '']);

    const notes = join(tempDir(), 'notes.txt');
    writeFileSync(notes, 'remember the milk');
    await expect(Ledger.open(notes, owner)).rejects.toThrow(/is not a run-batch ledger/);
    expect(readFileSync(notes, 'utf8')).toBe('remember the milk');
  });
});
