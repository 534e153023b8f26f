import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProcessFacts } from '../../src/cli/io.js';
import { LedgerLock } from '../../src/batch/lock.js';
import { pidRunning, tempDir } from '../helpers/cli.js';
import { patchFs } from '../helpers/patch-fs.js';

// The lock's write as a full disk makes it fail, once the file exists.
const disk = { full: false };
patchFs((fs) => ({
  writeFileSync: ((...args: Parameters<typeof fs.writeFileSync>) => {
    if (disk.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return fs.writeFileSync(...args);
  }) as typeof fs.writeFileSync,
}));

const said: string[] = [];
const SPACE = 'boot-1 pid:[4026531836]';
/** This process as bin/agentctl.js describes it on Linux, its start time and exit hooks under the test's control. */
function facts(overrides: Partial<ProcessFacts> = {}): ProcessFacts & { exitHooks: Array<() => void> } {
  const exitHooks: Array<() => void> = [];
  return {
    pid: process.pid,
    isRunning: pidRunning,
    pidSpace: SPACE,
    startTime: () => '1000',
    atExit: (cleanup) => {
      exitHooks.push(cleanup);
      return () => exitHooks.splice(exitHooks.indexOf(cleanup), 1);
    },
    exitHooks,
    ...overrides,
  };
}
/** The real time, and a watch that lasts no time (the lock stays as it is while watched). */
const owner = (process = facts()) => ({ process, clock: { now: () => Date.now(), sleep: () => Promise.resolve() }, say: (message: string) => void said.push(message) });
/** A process id that does not run. */
const deadPid = 2 ** 22 + 12345;
/** A lock left 2 minutes ago by `holder`, untouched since (as a stopped run leaves it). */
function oldLock(ledger: string, holder: object): string {
  const path = `${ledger}.lock`;
  writeFileSync(path, JSON.stringify({ host: hostname(), started: '2026-11-25T20:00:00.000Z', ...holder }));
  const old = new Date(Date.now() - 120_000);
  utimesSync(path, old, old);
  return path;
}
const ledgerPath = () => join(tempDir(), 'tasks.jsonl.ledger');
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as { message: string; hint: string; exitCode: number });

beforeEach(() => {
  said.length = 0;
  disk.full = false;
});

describe('the ledger lock', () => {
  it('is never taken from a run of this host that still runs, even stopped (Ctrl-Z) and untouched for long', async () => {
    const ledger = ledgerPath();
    // A live process of this host and pid space: this test's parent (a stopped run's pid runs too).
    const lock = oldLock(ledger, { pid: process.ppid, pidSpace: SPACE, startTime: '1000' });
    const error = await failure(LedgerLock.acquire(ledger, owner()));
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toContain(`in use by another run (pid ${process.ppid} on this host`);
    expect(error?.hint).toContain(`kill -CONT ${process.ppid}`);
    expect(said).toEqual([]); // not even watched
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('takes a lock over at once when its pid runs but is another process now (a different start time)', async () => {
    const ledger = ledgerPath();
    oldLock(ledger, { pid: process.ppid, pidSpace: SPACE, startTime: '999' });
    const lock = await LedgerLock.acquire(ledger, owner());
    expect(said).toEqual([expect.stringMatching(new RegExp(`from pid ${process.ppid} on this host, .* which no longer runs \\(pid ${process.ppid} is another process now\\)`))]);
    lock.release();
  });

  it('takes a lock over at once when its process no longer runs in the same pid space', async () => {
    const ledger = ledgerPath();
    oldLock(ledger, { pid: deadPid, pidSpace: SPACE, startTime: '1000' });
    const lock = await LedgerLock.acquire(ledger, owner());
    expect(said).toEqual([expect.stringContaining(`from pid ${deadPid} on this host, since 2026-11-25T20:00:00.000Z, which no longer runs.`)]);
    lock.release();
  });

  it("does not judge by pid a lock of another pid namespace with the same host name (containers): a touched one is in use", async () => {
    const ledger = ledgerPath();
    // Fresh, and its pid does not run here: in its own namespace it may well.
    writeFileSync(`${ledger}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), started: '2026-11-25T20:00:00.000Z', pidSpace: 'boot-1 pid:[4026532999]' }));
    const error = await failure(LedgerLock.acquire(ledger, owner()));
    expect(error?.message).toContain('is in use by another run');
    expect(error?.hint).toContain(`rm ${ledger}.lock`);
    // A process that cannot tell its pid space trusts no pid either.
    const again = await failure(LedgerLock.acquire(ledger, owner(facts({ pidSpace: undefined }))));
    expect(again?.message).toContain('is in use by another run');
    expect(said).toEqual([]);
  });

  it('takes a lock of another pid namespace touched in this very millisecond for a fresh one, not one from a clock ahead', async () => {
    const ledger = ledgerPath();
    writeFileSync(`${ledger}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), started: '2026-11-25T20:00:00.000Z', pidSpace: 'boot-1 pid:[4026532999]' }));
    // Written 0.7 ms into the millisecond the looker's clock reads.
    const now = Date.parse('2026-11-25T21:00:00.123Z');
    utimesSync(`${ledger}.lock`, (now + 0.7) / 1000, (now + 0.7) / 1000);
    const error = await failure(LedgerLock.acquire(ledger, { ...owner(), clock: { now: () => now, sleep: () => Promise.resolve() } }));
    expect(error?.message).toContain('is in use by another run');
    expect(said).toEqual([]);
  });

  it('takes over the lock of another pid namespace once it stays untouched, and says so', async () => {
    const ledger = ledgerPath();
    oldLock(ledger, { pid: process.ppid, pidSpace: 'boot-2 pid:[4026531836]' });
    const lock = await LedgerLock.acquire(ledger, owner());
    expect(said[0]).toMatch(/has not been touched for 12\ds: checking for 15s whether its run is alive/);
    expect(said[1]).toContain('which no longer touches it');
    lock.release();
  });

  it('a run whose lock another run has taken sends nothing more, says so, and leaves that lock in place', async () => {
    const ledger = ledgerPath();
    const lock = await LedgerLock.acquire(ledger, owner());
    lock.confirm(); // its own
    const other = JSON.stringify({ pid: 4242, host: 'ci-runner-7', started: '2026-11-25T22:00:00.000Z', token: 'theirs' });
    writeFileSync(`${ledger}.lock`, other);
    expect(() => lock.confirm()).toThrow(`the lock of the ledger ${ledger} is no longer this run's (it is held by pid 4242 on host ci-runner-7, since 2026-11-25T22:00:00.000Z now): this run sends nothing more`);
    expect(said).toEqual([expect.stringContaining('is no longer this run')]);
    lock.release();
    expect(readFileSync(`${ledger}.lock`, 'utf8')).toBe(other);
  });

  it('a create goes out on a recent check of the lock; an older check is made again', async () => {
    const ledger = ledgerPath();
    const lock = await LedgerLock.acquire(ledger, owner());
    writeFileSync(`${ledger}.lock`, JSON.stringify({ pid: 4242, host: 'ci-runner-7', started: '2026-11-25T22:00:00.000Z', token: 'theirs' }));
    expect(lock.lostSince(60_000)).toBeUndefined(); // seen its own when taken, a moment ago
    expect(lock.lostSince(-1)?.message).toContain("is no longer this run's (it is held by pid 4242 on host ci-runner-7");
    expect(lock.lostSince(60_000)).toBeDefined(); // once lost, always lost
    lock.release();
  });

  it('the heartbeat finds a lock taken over at once, says so, and stops touching it (it would keep a dead run\'s lock alive)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const ledger = ledgerPath();
      const lock = await LedgerLock.acquire(ledger, owner());
      writeFileSync(`${ledger}.lock`, JSON.stringify({ pid: 4242, host: 'ci-runner-7', started: '2026-11-25T22:00:00.000Z' }));
      const old = new Date(Date.now() - 120_000);
      utimesSync(`${ledger}.lock`, old, old);
      vi.advanceTimersByTime(10_000);
      expect(said).toEqual([expect.stringContaining("is no longer this run's (it is held by pid 4242 on host ci-runner-7")]);
      expect(Math.round((await import('node:fs')).statSync(`${ledger}.lock`).mtimeMs)).toBe(old.getTime());
      lock.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a lock removed by hand is not the run\'s any more either', async () => {
    const ledger = ledgerPath();
    const lock = await LedgerLock.acquire(ledger, owner());
    (await import('node:fs')).unlinkSync(`${ledger}.lock`);
    expect(() => lock.confirm()).toThrow(/no longer this run's \(it was removed\)/);
    lock.release();
  });

  it('is let go by the exit hook too (a second Ctrl-C exits at once), which release() unregisters', async () => {
    const ledger = ledgerPath();
    const process = facts();
    await LedgerLock.acquire(ledger, owner(process));
    expect(process.exitHooks).toHaveLength(1);
    process.exitHooks[0]?.();
    expect(existsSync(`${ledger}.lock`)).toBe(false);
    expect(process.exitHooks).toHaveLength(0);
  });

  it('a lock that could not be written (a full disk) is not left behind empty', async () => {
    const ledger = ledgerPath();
    disk.full = true;
    const error = await failure(LedgerLock.acquire(ledger, owner()));
    expect(error?.message).toMatch(/cannot write the ledger .*: ENOSPC/);
    expect(existsSync(`${ledger}.lock`)).toBe(false);
  });

  it('a lock that names nobody (left empty by a crash) is watched at once, not after 30 s, and taken over if untouched', async () => {
    const ledger = ledgerPath();
    writeFileSync(`${ledger}.lock`, '');
    const lock = await LedgerLock.acquire(ledger, owner());
    expect(said[0]).toBe('The lock of the ledger (a run it does not name) names no run: checking for 15s whether its run is alive.');
    expect(said[1]).toContain('Took over the lock');
    lock.release();
  });
});
