// The lock that keeps a ledger to one `tasks run-batch` at a time: two runs reading the same ledger
// would both see a line as not yet sent and create it twice. The lock is a file beside the ledger
// (LEDGER.lock), created with O_EXCL, which holds a shared filesystem too, and names its holder (pid,
// host, start time). A holder that crashed leaves it behind: on the same host, a lock whose process
// no longer runs is taken over; from another host nobody can tell, so the run says how to break it.
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessFacts } from '../../cli/io.js';
import { UsageError } from '../../errors.js';

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder started. */
  started: string;
}

export class LedgerLock {
  private held = true;

  private constructor(readonly path: string) {}

  /**
   * Takes the lock of `ledger`, or throws a UsageError naming the run that holds it. `tookOver` is
   * told of a stale lock that was removed (its holder no longer runs).
   */
  static acquire(ledger: string, me: ProcessFacts, now: Date, tookOver: (stale: LockHolder) => void): LedgerLock {
    const path = `${ledger}.lock`;
    const holder: LockHolder = { pid: me.pid, host: hostname(), started: now.toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        try {
          writeSync(fd, `${JSON.stringify(holder)}\n`);
        } finally {
          closeSync(fd);
        }
        return new LedgerLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new UsageError(`cannot write the ledger ${ledger}: ${(error as Error).message}`, `its folder must be writable (for its lock, ${path}); or give another path with --ledger PATH`);
        }
      }
      const text = readText(path);
      if (text === undefined) continue; // released meanwhile
      const other = parseHolder(text);
      if (other && other.host === holder.host && !me.isRunning(other.pid) && other.pid !== me.pid) {
        if (removeIfUnchanged(path, text, me.pid)) tookOver(other);
        continue;
      }
      throw busy(ledger, path, other, holder.host);
    }
    throw busy(ledger, path, parseHolder(readText(path) ?? ''), holder.host);
  }

  /** Removes the lock file (once; a run that ends any way calls this). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      unlinkSync(this.path);
    } catch {
      // Gone already (removed by hand): nothing to release.
    }
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.started === 'string') return value as LockHolder;
  } catch {
    // A lock torn by a crash while it was written: no holder to name.
  }
  return undefined;
}

/**
 * Removes a stale lock, unless another run replaced it since it was read (two runs that found the
 * same stale lock): it is moved aside first and put back if it is not the one that was read.
 */
function removeIfUnchanged(path: string, text: string, pid: number): boolean {
  const aside = `${path}.stale-${pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // another run moved it first
  }
  const same = readText(aside) === text;
  if (!same) {
    try {
      linkSync(aside, path); // a live run's lock: back where it was (unless yet another run took the place)
    } catch {
      // The place is taken again: that run holds the ledger now.
    }
  }
  unlinkSync(aside);
  return same;
}

function busy(ledger: string, path: string, holder: LockHolder | undefined, host: string): UsageError {
  if (!holder) {
    return new UsageError(`the ledger ${ledger} is locked by another run (${path} does not say which)`, `if no other run uses it, remove the lock and rerun: rm ${path}`);
  }
  const who = `pid ${holder.pid} on ${holder.host === host ? 'this host' : `host ${holder.host}`}, since ${holder.started}`;
  const message = `the ledger ${ledger} is in use by another run (${who}); two runs at once would create every task twice`;
  if (holder.host === host) return new UsageError(message, `wait for that run to end (or stop it: kill ${holder.pid}), then rerun`);
  return new UsageError(message, `another host cannot tell whether that run still runs: if it has stopped, remove its lock and rerun: rm ${path}`);
}
