// The lock that keeps a ledger to one `tasks run-batch` at a time: two runs reading the same ledger
// would both see a line as not yet sent and create it twice. The lock is a file beside the ledger
// (LEDGER.lock), created with O_EXCL, which holds on a shared filesystem too, and names its holder
// (pid, host, pid space, process start time, a token of its own). The holder touches it every few
// seconds. A holder that crashed leaves it behind:
// - on the same host and in the same pid space (boot and pid namespace), the pid tells: a lock whose
//   process no longer runs (or whose pid is another process's now) is taken over at once, and one
//   whose process runs is never taken, even when that process is stopped (Ctrl-Z) and touches nothing;
// - any other (another host, another container with the same host name, a system that does not say
//   its pid space) once it has not been touched for a while and stays untouched while watched, so no
//   clocks of two hosts are compared.
// The holder checks that the lock is still its own with each group of ledger records (before the
// group's `sending` records are written, and once they are on disk: no create goes out between) and
// on each heartbeat (a run stopped long enough may have lost it to another): once it is not, it
// sends nothing more.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessFacts } from '../cli/io.js';
import type { Clock } from '../contract/clock.js';
import { fileKind } from '../contract/file-kind.js';
import { UsageError } from '../errors.js';

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
  /** How messages name what the lock guards; a run-batch ledger's words by default. */
  words?: LockWords;
}

/** What a lock guards, in its messages: the thing ("the ledger x.jsonl"), the harm two runs would do, where else to go. */
export interface LockWords {
  thing: string;
  harm: string;
  elsewhere: string;
}

function wordsOf(ledger: string, owner: LockOwner): LockWords {
  return owner.words ?? { thing: `the ledger ${ledger}`, harm: 'two runs at once would create every task twice', elsewhere: '; or give another path with --ledger PATH' };
}

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder started. */
  started: string;
  /** Where the pid means something (ProcessFacts.pidSpace); absent where unknown. */
  pidSpace?: string;
  /** The holder process's start time (ProcessFacts.startTime), to tell a reused pid apart. */
  startTime?: string;
  /** This lock's own: tells it from another lock of the same process. */
  token?: string;
}

export class LedgerLock {
  private readonly heartbeat: NodeJS.Timeout;
  private held = true;
  /** Set once the lock on disk is not this run's any more. */
  private lost?: UsageError;
  /** When a check last found the lock this run's (performance.now()). */
  private seenAt = performance.now();
  private unregisterExit?: () => void;

  private constructor(
    private readonly ledger: string,
    readonly path: string,
    /** What this run wrote in the lock: the lock is this run's while the file holds it. */
    private readonly text: string,
    private readonly owner: LockOwner,
  ) {
    this.heartbeat = setInterval(() => {
      if (this.isMine()) touch(path);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    // A second Ctrl-C, or any other exit that skips the run's own `finally`, lets the ledger go too.
    this.unregisterExit = owner.process.atExit?.(() => this.release());
  }

  /**
   * Takes the lock of `ledger`, or throws a UsageError naming the run that holds it. `path` is the
   * lock's file: beside the ledger's real path (Ledger.open), so that every name of it meets one lock.
   */
  static async acquire(ledger: string, owner: LockOwner, path = `${ledger}.lock`): Promise<LedgerLock> {
    const { pid, pidSpace, startTime } = owner.process;
    const me: LockHolder = {
      pid,
      host: hostname(),
      started: new Date(owner.clock.now()).toISOString(),
      pidSpace,
      startTime: pidSpace === undefined ? undefined : startTime?.(pid),
      token: randomBytes(8).toString('hex'),
    };
    const text = `${JSON.stringify(me)}\n`;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (create(wordsOf(ledger, owner), path, text)) return new LedgerLock(ledger, path, text, owner);
      refuseOddLock(wordsOf(ledger, owner), path);
      const found = readText(path);
      if (found === undefined) continue; // released meanwhile
      const other = parseHolder(found);
      const stale = await whyStale(path, found, other, me, owner);
      if (!stale) throw busy(wordsOf(ledger, owner), path, other, me);
      if (removeIfUnchanged(path, found, me.pid)) owner.say(`Took over the lock of ${wordsOf(ledger, owner).thing.replace(/^the ledger /, '')} from ${describe(other, me.host)}, ${stale}.`);
    }
    throw busy(wordsOf(ledger, owner), path, parseHolder(readText(path) ?? ''), me);
  }

  /**
   * Throws unless the lock is still this run's: called with each group of `sending` records, so that
   * a run which lost its lock (stopped for long, or the lock removed by hand) sends nothing another
   * run may send too.
   */
  confirm(): void {
    if (!this.isMine()) throw this.lost;
  }

  /**
   * Why the lock is not this run's, or undefined while it is; reads the lock only when no check has
   * seen it this run's in the last `maxAgeMs` (by the monotonic clock, which runs while the process is stopped).
   */
  lostSince(maxAgeMs: number): UsageError | undefined {
    if (!this.lost && performance.now() - this.seenAt > maxAgeMs) this.isMine();
    return this.lost;
  }

  /** Why the lock is not this run's, or undefined while it is, read from disk now (confirm without the throw). */
  lostNow(): UsageError | undefined {
    this.isMine();
    return this.lost;
  }

  /** Stops touching the lock and removes it if it is still this run's (once; a run that ends any way calls this). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    clearInterval(this.heartbeat);
    this.unregisterExit?.();
    // Another run's lock (it took this one over) stays where it is.
    if (!this.lost && readText(this.path) === this.text) removeIfUnchanged(this.path, this.text, this.owner.process.pid);
  }

  /** Whether the lock on disk is still this run's; the first time it is not, says so (once lost, always lost). */
  private isMine(): boolean {
    if (this.lost) return false;
    const found = readText(this.path);
    if (found === this.text) {
      this.seenAt = performance.now();
      return true;
    }
    clearInterval(this.heartbeat); // never touch another run's lock: it would look alive after its run ended
    const now = found === undefined ? 'it was removed' : `it is held by ${describe(parseHolder(found), hostname())} now`;
    this.lost = new UsageError(
      `the lock of ${wordsOf(this.ledger, this.owner).thing} is no longer this run's (${now}): this run sends nothing more, as another run may send the same lines`,
      'let the other run end, then rerun the same command: it picks up what neither run did (nothing is created twice)',
    );
    this.owner.say(`${this.lost.message}.`);
    return false;
  }
}

/** Creates the lock holding `text`; false if there is one. A lock that could not be written whole is removed: it would name nobody. */
function create(words: LockWords, path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotWrite(words, path, error);
  }
  try {
    writeFileSync(fd, text);
  } catch (error) {
    closeSync(fd);
    unlinkSync(path);
    throw cannotWrite(words, path, error);
  }
  closeSync(fd);
  return true;
}

function cannotWrite(words: LockWords, path: string, error: unknown): UsageError {
  return new UsageError(`cannot write ${words.thing}: ${(error as Error).message}`, `its folder must be writable (for its lock, ${path})${words.elsewhere}`);
}

/**
 * Why the run that holds a lock is gone (undefined: it may be alive). The pid tells only on the same
 * host in the same pid space; anywhere else, and for a lock that names nobody, whether it is touched.
 */
async function whyStale(path: string, text: string, other: LockHolder | undefined, me: LockHolder, owner: LockOwner): Promise<string | undefined> {
  if (other && other.host === me.host && me.pidSpace !== undefined && other.pidSpace === me.pidSpace) {
    if (!owner.process.isRunning(other.pid)) return 'which no longer runs';
    const started = owner.process.startTime?.(other.pid);
    if (other.startTime !== undefined && started !== undefined && started !== other.startTime) return `which no longer runs (pid ${other.pid} is another process now)`;
    return undefined; // alive, if perhaps stopped (Ctrl-Z): its run goes on when it is continued
  }
  const touched = modified(path);
  if (touched === undefined) return undefined;
  // In whole milliseconds, as clocks tell time: a lock written in this very millisecond (its mtime
  // has a fraction, Date.now() none) is fresh, not "touched ahead of this host's clock".
  const age = owner.clock.now() - Math.floor(touched);
  // A lock that names nobody was never written whole (a crash right after creating it): watched at
  // once. So is one touched "in the future" (another host's clock ahead, or a date set by hand): its
  // age says nothing, whether it is touched while watched does (else it could never be taken over).
  if (other && age >= 0 && age < SUSPECT_MS) return undefined;
  const untouched = !other ? 'names no run' : age < 0 ? `was last touched ${Math.round(-age / 1000)}s ahead of this host's clock` : `has not been touched for ${Math.round(age / 1000)}s`;
  owner.say(`The lock of the ledger (${describe(other, me.host)}) ${untouched}: checking for ${WATCH_MS / 1000}s whether its run is alive.`);
  await owner.clock.sleep(WATCH_MS, owner.signal);
  return modified(path) === touched && readText(path) === text ? 'which no longer touches it' : undefined;
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
    // Removed meanwhile: the next check says so.
  }
}

/**
 * The lock's text; undefined when there is none, or it is not a regular file. Opened without blocking
 * and checked before it is read: a FIFO put in its place would block the run for ever (deaf to
 * SIGTERM, for the event loop would never turn again), a device would be read for ever.
 */
function readText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Refuses a lock that no run wrote (a folder, a FIFO, a link...): it would never be released, and reading it could block. */
function refuseOddLock(words: LockWords, path: string): void {
  let kind: Stats;
  try {
    kind = lstatSync(path);
  } catch {
    return; // released meanwhile
  }
  if (kind.isFile()) return;
  const what = fileKind(kind);
  throw new UsageError(
    `the lock of ${words.thing}, ${path}, is ${what}, not a lock a run wrote: no run can hold it while it is there`,
    `remove it (${kind.isDirectory() ? 'rm -r' : 'rm'} ${path}), then rerun`,
  );
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

function busy(words: LockWords, path: string, holder: LockHolder | undefined, me: LockHolder): UsageError {
  const message = `${words.thing} is in use by another run (${describe(holder, me.host)}); ${words.harm}`;
  if (holder && holder.host === me.host && me.pidSpace !== undefined && holder.pidSpace === me.pidSpace) {
    return new UsageError(
      message,
      `wait for that run to end (or stop it: kill ${holder.pid}; if it was stopped with Ctrl-Z, \`fg\` in its terminal or kill -CONT ${holder.pid} lets it go on), then rerun`,
    );
  }
  return new UsageError(
    message,
    `if that run has stopped, its lock is taken over once untouched for ${SUSPECT_MS / 1000}s (a live run touches it every ${HEARTBEAT_MS / 1000}s); or remove it now and rerun: rm ${path}`,
  );
}
