// The ledger of `tasks run-batch`: what became of each input line, so a rerun (after Ctrl-C, a crash
// or a CI retry) creates nothing twice. Append-only JSON Lines, written with write(2) of whole lines on
// an O_APPEND descriptor, so a crash loses at most what is being written: a torn last line is cut off
// when a run opens the ledger (it was never acknowledged), and a write that fails is taken back whole,
// so the next run's records never follow a torn one. Before each create a `sending` record is written (beforeSend): a `sending`
// without an outcome after it means the run died mid-request, and that line is reported as unknown
// instead of being sent again blindly. Records are made durable in groups (group commit): what is
// pending is written and fdatasync'd at once while the creates that wait on their `sending` record
// wait for that one sync; records made meanwhile go in the next. One run at a time holds a ledger
// (LedgerLock): two would both send every line.
import { closeSync, fdatasync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { access, appendFile, constants, readFile, stat, truncate } from 'node:fs/promises';
import { realPath } from '../contract/real-path.js';
import { UsageError } from '../errors.js';
import { LedgerLock, type LockOwner } from './lock.js';

/** `unsent`: a line recorded as `sending` whose create never went out (the run stopped first): sent again by a rerun. */
export type LedgerState = 'sending' | 'created' | 'rejected' | 'unknown' | 'unsent';

export interface LedgerEntry {
  line: number;
  hash: string;
  state: LedgerState;
  id?: string;
  error?: string;
  /** The exit code the outcome maps to (rejected, unknown). */
  code?: number;
  /** `created`: the base URL the task was created on (see service.ts). */
  service?: string;
  /** `created` on the emulator: its run (which set of records it served). */
  run?: string;
}

/**
 * A group is written and synced at most this often: every fdatasync costs the machine a journal
 * commit (and the thread that asks for it its core for a while), and the lines recorded ahead of the
 * creates in flight hide the wait (run-batch takes LINES_PER_SLOT lines per create in flight).
 * 100,000 creates at 32 in flight, against the node:http floor: unpaced ~6,000 syncs, 0.82x; 2 ms
 * 0.87-1.00x; 4 ms 0.95x, CPU per create at the floor's (docs/performance.md).
 */
const SYNC_GAP_MS = 4;
/** How recent a check of the lock a create may go out on (see lockLost). */
const LOCK_SEEN_MS = 10;

export class Ledger {
  private fd?: number;
  /** Outcome records to write with the next group. */
  private pending = '';
  /** `sending` records to write with the next group (their creates wait on them). */
  private sending = '';
  private flushSoon?: NodeJS.Immediate;
  private flushLater?: NodeJS.Timeout;
  /** When the last group's sync started (performance.now()). */
  private lastSyncAt = -Infinity;
  /** Set by close(): what is pending goes out at once. */
  private closing = false;
  /** Creates waiting for their `sending` record to be written. */
  private waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  /** A sync in flight; what is recorded meanwhile waits for the next group. */
  private syncing = false;
  private synced?: () => void;
  /** A write that failed: every later write fails with it. */
  private failure?: Error;
  /** Tasks created whose record could not be written: the run lists them, a rerun would not know them. */
  readonly unwritten: LedgerEntry[] = [];
  /** `unsent` records that could not be written: without them a rerun would call those lines unknown. */
  readonly unwrittenUnsent: LedgerEntry[] = [];

  private constructor(
    readonly path: string | undefined,
    /** What previous runs left: the latest record of each line they sent (a `rejected` or `unsent` line is sent again). */
    readonly entries: Map<number, LedgerEntry>,
    readonly lock?: LedgerLock,
  ) {}

  /**
   * Locks and reads the ledger at `path` (missing means a first run); undefined keeps no ledger
   * (stdin without --ledger). Refuses what is not a writable regular file (a device would be read
   * forever, or lose every record), and a ledger in which one line has two tasks.
   */
  static async open(path: string | undefined, owner: LockOwner): Promise<Ledger> {
    const entries = new Map<number, LedgerEntry>();
    if (path === undefined) return new Ledger(undefined, entries);
    await checkWritableFile(path);
    // Beside the ledger's real path, so that every (symbolic) name of it meets one lock.
    const lock = await LedgerLock.acquire(path, owner, `${await realPath(path)}.lock`);
    try {
      return new Ledger(path, await readEntries(path, owner.say), lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** The write that failed, if one did: the run stops taking lines. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** Lets the next run have the ledger (after close(); a run that ends any way calls it). */
  unlock(): void {
    this.lock?.release();
  }
  /**
   * True when the ledger holds this line of the input; refuses a ledger written for another input
   * (its line numbers would mean other tasks).
   */
  matches(line: { line: number; hash: string }): boolean {
    const entry = this.entries.get(line.line);
    if (entry && entry.hash !== line.hash) this.mismatch(`line ${line.line} has changed`);
    return entry !== undefined;
  }

  mismatch(why: string): never {
    throw new UsageError(
      `the ledger ${this.path} does not match this input: ${why}`,
      'rerun with the same file and --shard, or give a new ledger with --ledger PATH',
    );
  }

  /**
   * Records that a line's create is about to be sent; resolves once the record is on disk, so a run
   * (or machine) that dies mid-request leaves it behind. The creates that start while a sync is in
   * flight share the next write(2) and fdatasync(2): a batch pays a sync per group, not per task.
   */
  beforeSend(entry: LedgerEntry): Promise<void> {
    if (this.path === undefined) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.sending += `${JSON.stringify(entry)}\n`;
      this.flushAfterThisTurn();
    });
  }

  /** Flushes once this turn's records are made (unless a flush is due already). */
  private flushAfterThisTurn(): void {
    if (this.flushSoon === undefined && this.flushLater === undefined) this.flushSoon = setImmediate(() => this.flush());
  }

  /** Appends an outcome (`entries` stays what the previous runs left: this run has moved past the line). */
  record(entry: LedgerEntry): void {
    if (this.path === undefined) return;
    if (this.failure) {
      if (entry.state === 'created') this.unwritten.push(entry);
      return;
    }
    this.pending += `${JSON.stringify(entry)}\n`;
    this.flushAfterThisTurn();
  }

  /**
   * Takes back a line's `sending` record: its create never went out. Not once the lock is lost: the
   * run that took it over may have sent the line since, and a later run must not send it again.
   */
  unsent(entry: LedgerEntry): void {
    if (this.path === undefined) return;
    if (this.failure) return void this.unwrittenUnsent.push(entry);
    // With the `sending` records: written only after the group's lock check.
    this.sending += `${JSON.stringify(entry)}\n`;
    this.flushAfterThisTurn();
  }

  /**
   * Why the lock is not this run's any more, or undefined while it is: asked before each create goes
   * out. The lock file is read again only when no check has seen it in the last LOCK_SEEN_MS (each
   * group's check does, every few ms while creates flow), so a create held up for long (a stopped
   * process, a slow answer before it) does not go out on an old check.
   */
  lockLost(): Error | undefined {
    return this.lock?.lostSince(LOCK_SEEN_MS);
  }

  /** Writes what is pending and starts its sync; a failure is kept and reported to the creates waiting and at close(). */
  flush(): void {
    if (this.flushSoon) clearImmediate(this.flushSoon);
    this.flushSoon = undefined;
    clearTimeout(this.flushLater);
    this.flushLater = undefined;
    if (this.syncing) return; // this group goes out when the sync in flight ends
    const wait = this.closing ? 0 : this.lastSyncAt + SYNC_GAP_MS - performance.now();
    if (wait > 0) {
      this.flushLater = setTimeout(() => this.flush(), wait);
      return;
    }
    this.lastSyncAt = performance.now();
    let waiting = this.waiting;
    this.waiting = [];
    // The lock is checked once per group, not per create (reading it cost a create ~25 us): before
    // its `sending` records are written (a run that lost its lock writes and sends nothing more),
    // and again once they are on disk (a run that takes the lock over meanwhile reads them).
    if (this.sending !== '') {
      const lost = this.lock?.lostNow();
      if (lost) {
        for (const waiter of waiting) waiter.reject(lost);
        waiting = [];
      } else this.pending += this.sending;
      this.sending = '';
    }
    const wrote = this.pending !== '';
    let start: number | undefined;
    try {
      if (this.failure) throw this.failure;
      if (this.pending !== '' && this.path !== undefined) {
        this.fd ??= openSync(this.path, 'a', 0o600);
        start = fstatSync(this.fd).size;
        // A write can take fewer bytes than asked (a full disk, a file-size limit) without an error:
        // the creates waiting on this write may go out only once every byte of it is written.
        const bytes = Buffer.from(this.pending);
        for (let written = 0; written < bytes.length; ) {
          const step = writeSync(this.fd, bytes, written);
          if (step <= 0) throw new Error(`wrote ${written} of ${bytes.length} bytes`);
          written += step;
        }
      }
      this.pending = '';
    } catch (error) {
      this.fail(error, waiting);
      // None of this group counts: what of it was written is taken back (shrinking a file needs no
      // space), so the ledger ends with a whole record for whatever writes to it next. Its created
      // tasks are listed by the run.
      if (start !== undefined && this.fd !== undefined) tryTruncate(this.fd, start);
      for (const text of this.pending.split('\n')) {
        const entry = text === '' ? undefined : (JSON.parse(text) as LedgerEntry);
        if (entry?.state === 'created') this.unwritten.push(entry);
        if (entry?.state === 'unsent') this.unwrittenUnsent.push(entry);
      }
      this.pending = '';
      return;
    }
    if (!wrote || this.fd === undefined) return void waiting.forEach((waiter) => waiter.resolve());
    this.syncing = true;
    fdatasync(this.fd, (error) => {
      this.syncing = false;
      const lost = waiting.length > 0 ? this.lock?.lostNow() : undefined;
      if (error) this.fail(error, waiting);
      else if (lost) for (const waiter of waiting) waiter.reject(lost);
      else for (const waiter of waiting) waiter.resolve();
      // The next group goes out on the next turn: the creates just let go are sent first, so none
      // leaves after a later group's check has found the lock lost (and said so).
      if (this.pending !== '' || this.sending !== '' || this.waiting.length > 0) this.flushAfterThisTurn();
      if (!this.syncing) this.synced?.();
    });
  }

  private fail(error: unknown, waiting: Array<{ reject: (error: unknown) => void }>): void {
    // Not another --ledger: this one holds what was created.
    this.failure ??= new UsageError(`cannot write the ledger ${this.path}: ${(error as Error).message}`, 'make room (or fix the cause), then rerun the same command: the ledger keeps what it recorded');
    for (const waiter of waiting) waiter.reject(this.failure);
  }

  /**
   * Writes and syncs what is pending and closes the file. Answers the error of a write that failed
   * (what the ledger lists may then be incomplete), for the caller to report after its own output.
   */
  async close(): Promise<Error | undefined> {
    this.closing = true;
    do {
      this.flush();
      while (this.syncing) await new Promise<void>((resolve) => (this.synced = resolve));
    } while (this.pending !== '' || this.sending !== '');
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    return this.failure;
  }
}

/** A ledger is a regular file the run may write (or none yet in a folder it may write: the lock tells). */
async function checkWritableFile(path: string): Promise<void> {
  let kind: Awaited<ReturnType<typeof stat>>;
  try {
    kind = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new UsageError(`cannot read the ledger ${path}: ${(error as Error).message}`, 'give another path with --ledger PATH');
  }
  if (!kind.isFile()) throw new UsageError(`the ledger ${path} is not a regular file`, 'give the path of a file (new or from a previous run) with --ledger PATH');
  // A hard link is a second name whose lock is another file: a run under each name would send every line.
  if (kind.nlink > 1) {
    throw new UsageError(
      `the ledger ${path} has ${kind.nlink} names (hard links): a run under another of them would not meet this run's lock, and both would create every task`,
      `keep one name: remove the other links (find . -samefile ${path}), then rerun under the name that is left; or give a new ledger with --ledger PATH`,
    );
  }
  try {
    await access(path, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new UsageError(`cannot write the ledger ${path}: ${(error as Error).message}`, 'give a writable path with --ledger PATH, then rerun');
  }
}

/** The records of a ledger, in the order written; a record torn by a crash mid-write (the last) is left out. */
export function ledgerRecords(text: string, path: string): LedgerEntry[] {
  const lines = text.split('\n');
  const records: LedgerEntry[] = [];
  lines.forEach((raw, index) => {
    if (raw.trim() === '') return;
    let entry: LedgerEntry;
    try {
      entry = JSON.parse(raw) as LedgerEntry;
    } catch {
      if (index === lines.length - 1) return; // torn by a crash mid-write: that record never happened
      throw new UsageError(`the ledger ${path} is damaged at line ${index + 1}`, 'move it away to start over (tasks it lists would be created again)');
    }
    if (!isRecord(entry)) {
      throw new UsageError(`${path} is not a run-batch ledger (line ${index + 1})`, 'give another file with --ledger PATH');
    }
    records.push(entry);
  });
  return records;
}

function isRecord(entry: unknown): entry is LedgerEntry {
  return typeof entry === 'object' && entry !== null && typeof (entry as LedgerEntry).line === 'number' && typeof (entry as LedgerEntry).hash === 'string';
}

/** Lines of a ledger that name more than one task: each of them was created more than once. */
export function duplicateTasks(records: Iterable<LedgerEntry>): Map<number, string[]> {
  const ids = new Map<number, string[]>();
  for (const record of records) {
    if (record.state !== 'created' || !record.id) continue;
    const known = ids.get(record.line);
    if (!known) ids.set(record.line, [record.id]);
    else if (!known.includes(record.id)) known.push(record.id);
  }
  return new Map([...ids].filter(([, list]) => list.length > 1));
}

function tryTruncate(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {
    // The next run cuts the torn record off when it opens the ledger.
  }
}

/** How every record starts (JSON.stringify of a LedgerEntry): a torn one starts the same way. */
const RECORD_START = '{"line":';

/**
 * The ledger's records, the file made to end with a whole line before this run appends to it: a
 * last record a crash tore is cut off. Its run never went on from it (a create waits for its
 * `sending` record), so the line it was about falls back to its `sending`: unknown, never sent
 * again blindly. A whole last record without its newline (added by hand) gets one. Nothing is
 * changed in a file that is not a ledger.
 */
async function repairedRecords(path: string, say: (message: string) => void): Promise<LedgerEntry[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`cannot read the ledger ${path}: ${(error as Error).message}`);
  }
  const records = ledgerRecords(bytes.toString('utf8'), path);
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return records;
  const cut = bytes.lastIndexOf(0x0a) + 1;
  const last = bytes.subarray(cut).toString('utf8');
  const whole = last.trim() === '' || isWhole(last);
  if (!whole && !(last.startsWith(RECORD_START) || RECORD_START.startsWith(last))) {
    throw new UsageError(`${path} is not a run-batch ledger (line ${records.length + 1})`, 'give another file with --ledger PATH');
  }
  try {
    if (whole) await appendFile(path, '\n');
    else await truncate(path, cut);
  } catch (error) {
    throw new UsageError(`cannot write the ledger ${path}: ${(error as Error).message}`, 'make room (or fix the cause), then rerun');
  }
  if (!whole) say(`The last record of the ledger ${path} was cut off (its run stopped while writing it): left out.`);
  return records;
}

function isWhole(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

/** What previous runs left: the latest record of each line they sent (a `rejected` or `unsent` line is sent again). */
async function readEntries(path: string, say: (message: string) => void): Promise<Map<number, LedgerEntry>> {
  const records = await repairedRecords(path, say);
  const twice = duplicateTasks(records);
  if (twice.size > 0) {
    const listed = [...twice].slice(0, 10).map(([line, ids]) => `  line ${line}: ${ids.join(', ')}`);
    if (twice.size > 10) listed.push(`  ... and ${twice.size - 10} more lines`);
    throw new UsageError(
      `the ledger ${path} holds more than one task for ${twice.size} line${twice.size === 1 ? '' : 's'} (two runs sent them at once):\n${listed.join('\n')}`,
      "nothing was sent. Cancel the extra tasks (agentctl tasks cancel ID) or keep their results, then delete the ledger's records of the ones you do not keep and rerun",
    );
  }
  const entries = new Map<number, LedgerEntry>();
  /** What each line's latest `sending` replaced: its `unsent` puts that back (a line unknown before stays unknown). */
  const beforeSending = new Map<number, LedgerEntry | undefined>();
  for (const entry of records) {
    if (entry.state === 'sending') beforeSending.set(entry.line, entries.get(entry.line));
    if (entry.state === 'unsent') {
      const before = beforeSending.get(entry.line);
      if (before) entries.set(entry.line, before);
      else entries.delete(entry.line);
    } else if (entry.state === 'rejected') entries.delete(entry.line);
    else entries.set(entry.line, entry);
  }
  for (const entry of entries.values()) {
    if (entry.state === 'sending') {
      Object.assign(entry, { state: 'unknown', error: 'the previous run stopped while creating this task', code: 1 });
    }
  }
  return entries;
}
