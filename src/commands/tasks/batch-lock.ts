// The lock that keeps a ledger to one `tasks run-batch` at a time: two runs reading the same ledger
// would both see a line as not yet sent and create it twice. The lock is a file beside the ledger
// (LEDGER.lock), created with O_EXCL, which holds on a shared filesystem too, and names its holder
// (pid, host, start time). The holder touches it every few seconds. A holder that crashed leaves it
// behind: on the same host, a lock whose process no longer runs is taken over at once; any other
// (another host, or a container that came back with the same pid) once it has not been touched for
// a while and stays untouched while watched, so no clocks of two hosts are compared.
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessFacts } from '../../cli/io.js';
import type { Clock } from '../../contract/clock.js';
import { UsageError } from '../../errors.js';

/** How often the holder touches its lock. */
const HEARTBEAT_MS = 5_000;
/** A lock untouched this long (by the looker's clock) is watched; one that stays untouched is stale. */
const SUSPECT_MS = 30_000;
const WATCH_MS = 3 * HEARTBEAT_MS;

/** Who takes a lock: this process, a clock to watch a suspect lock by, and where to say what it does. */
export interface LockOwner {
  process: ProcessFacts;
  clock: Clock;
  signal?: AbortSignal;
  say(message: string): void;
}

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder started. */
  started: string;
}

export class LedgerLock {
  private readonly heartbeat: NodeJS.Timeout;
  private held = true;

  private constructor(readonly path: string) {
    this.heartbeat = setInterval(() => touch(path), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Takes the lock of `ledger`, or throws a UsageError naming the run that holds it. */
  static async acquire(ledger: string, owner: LockOwner): Promise<LedgerLock> {
    const path = `${ledger}.lock`;
    const me: LockHolder = { pid: owner.process.pid, host: hostname(), started: new Date(owner.clock.now()).toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        try {
          writeSync(fd, `${JSON.stringify(me)}\n`);
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
      if (!(await isStale(path, text, other, me, owner))) throw busy(ledger, path, other, me.host);
      if (removeIfUnchanged(path, text, me.pid)) owner.say(`Took over the lock of ${ledger} from ${describe(other, me.host)}, which no longer runs.`);
    }
    throw busy(ledger, path, parseHolder(readText(path) ?? ''), me.host);
  }

  /** Stops touching the lock and removes it (once; a run that ends any way calls this). */
  release(): void {
    if (!this.held) return; // once: by then the lock may be another run's
    this.held = false;
    clearInterval(this.heartbeat);
    try {
      unlinkSync(this.path);
    } catch {
      // Gone already (released, or removed by hand): nothing to release.
    }
  }
}

/** Whether the run that holds a lock is gone: its process does not run here, or the lock stays untouched. */
async function isStale(path: string, text: string, other: LockHolder | undefined, me: LockHolder, owner: LockOwner): Promise<boolean> {
  if (other && other.host === me.host && other.pid !== me.pid && !owner.process.isRunning(other.pid)) return true;
  const touched = modified(path);
  if (touched === undefined || owner.clock.now() - touched < SUSPECT_MS) return false;
  owner.say(`The lock of the ledger (${describe(other, me.host)}) has not been touched for ${Math.round((owner.clock.now() - touched) / 1000)}s: checking for ${WATCH_MS / 1000}s whether its run is alive.`);
  await owner.clock.sleep(WATCH_MS, owner.signal);
  return modified(path) === touched && readText(path) === text;
}

function modified(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Removed by hand: the run goes on; the next run takes the ledger as free.
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

function describe(holder: LockHolder | undefined, host: string): string {
  if (!holder) return 'a run it does not name';
  return `pid ${holder.pid} on ${holder.host === host ? 'this host' : `host ${holder.host}`}, since ${holder.started}`;
}

function busy(ledger: string, path: string, holder: LockHolder | undefined, host: string): UsageError {
  const message = `the ledger ${ledger} is in use by another run (${describe(holder, host)}); two runs at once would create every task twice`;
  if (holder && holder.host === host) return new UsageError(message, `wait for that run to end (or stop it: kill ${holder.pid}), then rerun`);
  return new UsageError(
    message,
    `if that run has stopped, its lock is taken over once untouched for ${SUSPECT_MS / 1000}s (a live run touches it every ${HEARTBEAT_MS / 1000}s); or remove it now and rerun: rm ${path}`,
  );
}
