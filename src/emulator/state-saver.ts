import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, open, readdir, readFile, rm, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomically } from '../contract/atomic-write.js';
import { realPath } from '../contract/real-path.js';
import type { Clock, TimerHandle } from './clock.js';
import type { State } from './state.js';

// Saving the records to a state file (`--state FILE`, the stateFile option) while the emulator runs:
// on an interval whenever something changed, and on close, so a killed emulator loses at most the
// last interval. One emulator at a time per file: a lock file beside it (FILE.lock, made with O_EXCL)
// names its holder, so a second emulator refuses the file rather than overwrite the first's saves.
// The lock lies beside the file's real path (as the run-batch ledger's does), and a file with
// several names (hard links) is refused: otherwise an emulator under each name would hold a lock of
// its own. Saves go to the real path too, so a symbolic link stays a link to the one file.
// Loading the file is index.ts's (loadState); this module only writes it and guards it.

/** A state file (stateFile, --state) that cannot be read, is not the emulator's, cannot be written, or is in use. */
export class StateFileError extends Error {}

/** What a lock needs of the process holding it (the command line passes its own; the library may not). */
export interface LockProcess {
  pid: number;
  /** Whether a process of this host with this id still runs. */
  isRunning(pid: number): boolean;
  /** Where pids mean something (boot and pid namespace); undefined where unknown. */
  pidSpace?: string;
}

/** How often a save is considered (it happens only when something changed): a kill loses at most this. */
export const DEFAULT_SAVE_INTERVAL_MS = 2_000;
/** How often the holder touches its lock; a lock untouched three times as long, by a holder we cannot ask about, is stale. */
const HEARTBEAT_MS = 5_000;
const STALE_MS = 3 * HEARTBEAT_MS;

/** The state files held by emulators of this process (a second one in the same process must refuse too). */
const heldHere = new Set<string>();

interface LockText {
  pid?: number;
  pidSpace?: string;
  host: string;
  token: string;
}

export interface SaverOptions {
  clock: Clock;
  intervalMs?: number;
  process?: LockProcess;
}

export class StateSaver {
  private timer: TimerHandle | undefined;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private saving: Promise<void> = Promise.resolve();
  private savedRevision = -1;
  private closed = false;

  private constructor(
    readonly file: string,
    /** Where `file` really is (its links followed): what is saved to and locked. */
    private readonly real: string,
    private readonly state: State,
    private readonly lock: { path: string; text: string },
    private readonly options: SaverOptions,
  ) {
    // A real timer: the lock's freshness is read by other processes, on the wall clock.
    this.heartbeat = setInterval(() => void utimes(lock.path, new Date(), new Date()).catch(() => undefined), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Takes `file` for this emulator: checks its folder can be written, takes the lock (StateFileError
   * naming the holder when another emulator has it), removes temporary files a killed emulator left
   * beside it, and starts the periodic saves. Call before loading, so no two emulators read and save it.
   */
  static async open(file: string, state: State, options: SaverOptions): Promise<StateSaver> {
    await checkOneName(file);
    const real = await realPath(file);
    await checkSavable(file, real);
    const lock = await takeLock(file, real, options.process);
    await removeLeftovers(real);
    const saver = new StateSaver(file, real, state, lock, options);
    saver.savedRevision = state.revision; // what was loaded is on disk already
    saver.arm();
    return saver;
  }

  /** Writes the records to `file` once, without a lock (an emulator started without a state file saving a copy). */
  static async saveOnce(file: string, state: State): Promise<void> {
    await writeFileAtomically(file, `${JSON.stringify(state.snapshot())}\n`).catch((error: unknown) => {
      throw new StateFileError(`cannot save the records to ${file}: ${(error as Error).message}`);
    });
  }

  /** Writes the records now (saves run one at a time, each atomically: never a truncated file). */
  save(file = this.file): Promise<void> {
    const revision = this.state.revision;
    const text = `${JSON.stringify(this.state.snapshot())}\n`;
    const write = this.saving.then(() =>
      writeFileAtomically(file === this.file ? this.real : file, text).catch((error: unknown) => {
        throw new StateFileError(`cannot save the records to ${file}: ${(error as Error).message}`);
      }),
    );
    this.saving = write.then(
      () => {
        if (file === this.file) this.savedRevision = Math.max(this.savedRevision, revision);
      },
      () => undefined,
    );
    return write;
  }

  /** The last save, then the lock is given back. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stop();
    try {
      await this.save();
    } finally {
      await this.release();
    }
  }

  /** Gives the file back without saving (the emulator did not start: the file stays as it was). */
  async abandon(): Promise<void> {
    if (this.closed) return;
    this.stop();
    await this.saving;
    await this.release();
  }

  private stop(): void {
    this.closed = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    clearInterval(this.heartbeat);
  }

  private async release(): Promise<void> {
    await releaseLock(this.lock);
    heldHere.delete(this.real);
  }

  private arm(): void {
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.closed) return;
      // A failed periodic save is tried again on the next interval; close() reports one that still fails.
      const due = this.state.revision !== this.savedRevision ? this.save().catch(() => undefined) : Promise.resolve();
      void due.then(() => {
        if (!this.closed) this.arm();
      });
    }, this.options.intervalMs ?? DEFAULT_SAVE_INTERVAL_MS);
  }
}

/** A file with several names (hard links) would have a lock per name: an emulator under each would save over the others'. */
async function checkOneName(file: string): Promise<void> {
  const names = await stat(file).then((info) => info.nlink, () => 1);
  if (names > 1) {
    throw new StateFileError(
      `${file} has ${names} names (hard links): an emulator under another name would not meet this one's lock, and each would save over the other's records; keep one name (find . -samefile ${file}) or give another file`,
    );
  }
}

/** Throws a StateFileError saying why `file` (really at `real`) could not be saved: its folder is missing or not writable. */
async function checkSavable(file: string, real: string): Promise<void> {
  const folder = dirname(real);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new StateFileError(`cannot save to ${file}: the folder ${folder} does not exist`);
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new StateFileError(`cannot save to ${file}: the folder ${folder} is not writable`);
  }
}

async function takeLock(file: string, real: string, owner: LockProcess | undefined): Promise<{ path: string; text: string }> {
  const key = real;
  const path = `${real}.lock`;
  if (heldHere.has(key)) throw inUse(file, path, 'another emulator of this process');
  const mine: LockText = { ...(owner ? { pid: owner.pid, ...(owner.pidSpace ? { pidSpace: owner.pidSpace } : {}) } : {}), host: hostname(), token: randomBytes(8).toString('hex') };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      heldHere.add(key);
      return { path, text };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StateFileError(`cannot lock ${file} (${path}): ${(error as Error).message}`);
    }
    const holder = await readLock(path);
    const verdict = holder === undefined ? 'stale' : await judge(path, holder, owner);
    if (verdict !== 'stale') throw inUse(file, path, verdict);
    // The holder is gone (killed, or its machine restarted): its lock is taken over.
    await rm(path, { force: true });
  }
  throw inUse(file, path, 'another emulator, which took it at the same moment');
}

/** 'stale' when the lock's holder no longer runs; else who holds it, for the message. */
async function judge(path: string, holder: LockText, owner: LockProcess | undefined): Promise<string> {
  const samePidSpace = owner?.pidSpace !== undefined && holder.pidSpace === owner.pidSpace && holder.host === hostname();
  if (owner && holder.pid !== undefined && samePidSpace) return owner.isRunning(holder.pid) ? `the emulator with pid ${holder.pid}` : 'stale';
  // A holder we cannot ask about (another host or pid space, or no pid): its heartbeat tells.
  const touched = await stat(path).then((info) => info.mtimeMs, () => 0);
  if (Date.now() - touched > STALE_MS) return 'stale';
  return holder.pid === undefined ? `an emulator on ${holder.host}` : `the emulator with pid ${holder.pid} on ${holder.host}`;
}

async function readLock(path: string): Promise<LockText | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<LockText>;
    if (typeof value.host !== 'string' || typeof value.token !== 'string') return undefined;
    return { host: value.host, token: value.token, ...(Number.isInteger(value.pid) ? { pid: value.pid } : {}), ...(typeof value.pidSpace === 'string' ? { pidSpace: value.pidSpace } : {}) };
  } catch {
    return undefined; // unreadable or half-written: not a lock anyone holds
  }
}

function inUse(file: string, path: string, holder: string): StateFileError {
  return new StateFileError(`${file} is in use by ${holder} (lock ${path}); stop that emulator or give another file (remove the lock only if no emulator uses the file)`);
}

/** Removes the lock if it is still this emulator's. */
async function releaseLock(lock: { path: string; text: string }): Promise<void> {
  const current = await readFile(lock.path, 'utf8').catch(() => undefined);
  if (current === lock.text) await unlink(lock.path).catch(() => undefined);
}

/** Removes `FILE.<hex>.tmp` files beside the state file: a save cut off by a kill leaves one (the lock says no save runs now). */
async function removeLeftovers(file: string): Promise<void> {
  const folder = dirname(file);
  const prefix = `${basename(file)}.`;
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length))) await rm(join(folder, name), { force: true });
  }
}
