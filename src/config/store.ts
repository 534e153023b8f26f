import { chmodSync, closeSync, fchmodSync, fsyncSync, ftruncateSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describeJsonError } from '../contract/json-error.js';
import { UsageError } from '../errors.js';

export const CONFIG_KEYS = ['base-url', 'api-key', 'output', 'timeout', 'insecure-http'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type Profile = Partial<Record<ConfigKey, string>>;
export const DEFAULT_PROFILE = 'default';

interface ConfigShape {
  profiles: Record<string, Profile>;
}

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

/** How long a writer waits for another agentctl to finish writing, and when a lock counts as left behind. */
const LOCK_WAIT_MS = 5000;
const LOCK_STALE_MS = 10_000;

/**
 * Profiles in $XDG_CONFIG_HOME/agentctl/config.json, read as plain JSON (nothing is read until a
 * setting is needed, so `config path` works whatever the file holds). The file holds API keys: it is
 * written 0600 in a 0700 folder, atomically (a temporary file renamed over it), under a lock file so
 * that parallel runs (`auth login --profile p1` and `p2` at once) each keep their change. A
 * config.json that is a symbolic link (a dotfile manager's) is written through: its target changes,
 * the link stays.
 */
export class ConfigStore {
  readonly path: string;
  private cached?: ConfigShape;

  constructor(readonly dir: string) {
    this.path = join(dir, 'config.json');
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles);
  }

  profile(name: string): Profile | undefined {
    return this.read().profiles[name];
  }

  set(profileName: string, key: ConfigKey, value: string): void {
    this.update((config) => {
      config.profiles[profileName] = { ...config.profiles[profileName], [key]: value };
      return true;
    });
  }

  /** Removes a key; the profile goes too when nothing is left in it. Returns whether anything changed. */
  unset(profileName: string, key: ConfigKey): boolean {
    return this.update((config) => {
      const profile = config.profiles[profileName];
      if (!profile || profile[key] === undefined) return false;
      delete profile[key];
      if (Object.keys(profile).length === 0) delete config.profiles[profileName];
      return true;
    });
  }

  private read(): ConfigShape {
    this.cached ??= this.load();
    return this.cached;
  }

  private load(): ConfigShape {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { profiles: {} };
      throw this.fileError('read', error);
    }
    let data: unknown;
    try {
      data = text.trim() === '' ? {} : JSON.parse(text);
    } catch (error) {
      // JSON.parse quotes the text around the error, which may be an API key: say where, not what.
      throw new UsageError(
        `the config file ${this.path} is not valid JSON: ${describeJsonError(text, error)}`,
        `fix it in an editor, or move it away to start again: mv ${this.path} ${this.path}.bak`,
      );
    }
    const profiles = (data as Partial<ConfigShape> | null)?.profiles ?? {};
    if (typeof data !== 'object' || data === null || Array.isArray(data) || typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
      throw new UsageError(
        `the config file ${this.path} is not an agentctl config ({"profiles": {...}})`,
        `move it away to start again: mv ${this.path} ${this.path}.bak`,
      );
    }
    return { profiles: profiles as Record<string, Profile> };
  }

  /** Read, change and write the file under the lock; `change` returns whether it changed anything. */
  private update(change: (config: ConfigShape) => boolean): boolean {
    this.makeFolder();
    const release = this.lock();
    try {
      this.cached = undefined; // another run may have written since we read
      const config = this.read();
      if (!change(config)) return false;
      this.write(config);
      return true;
    } finally {
      release();
    }
  }

  private makeFolder(): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      chmodSync(this.dir, 0o700);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'EEXIST') {
        const file = this.firstFileOnPath();
        throw new UsageError(
          `cannot create the config folder ${this.dir}: ${file} is a file, not a folder`,
          `move ${file} away, or point XDG_CONFIG_HOME at a folder`,
        );
      }
      if (code === 'EPERM' && statSafe(this.dir)?.isDirectory()) return; // someone else's folder: keep its mode
      throw this.fileError('create the folder of', error);
    }
  }

  private firstFileOnPath(): string {
    let path = this.dir;
    const parents: string[] = [];
    while (dirname(path) !== path) {
      parents.unshift(path);
      path = dirname(path);
    }
    return parents.find((candidate) => statSafe(candidate)?.isFile()) ?? this.dir;
  }

  private write(config: ConfigShape): void {
    const text = `${JSON.stringify(config, null, '\t')}\n`;
    const target = linkTarget(this.path);
    // Beside the file it replaces (the link's target), so the rename stays on one file system.
    const temporary = `${target}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      writeFile(temporary, 'w', text);
      renameSync(temporary, target);
    } catch (error) {
      rmSync(temporary, { force: true });
      if (target === this.path) throw this.fileError('write', error);
      // Only a folder that takes no new file (someone else's dotfile store) is worth writing the file in place:
      // after any other failure (a full disk) that would leave it half written.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EACCES' && code !== 'EPERM') throw this.fileError('write', error, target);
      try {
        writeFile(target, 'r+', text);
      } catch (inPlace) {
        throw this.fileError('write', inPlace, target);
      }
    }
  }

  /** A lock file created exclusively; waits (briefly) for another writer, and breaks a lock left behind. */
  private lock(): () => void {
    const lockPath = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(lockPath, 'wx', 0o600));
        return () => rmSync(lockPath, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw this.fileError('write', error);
      }
      const age = Date.now() - (statSafe(lockPath)?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) {
        rmSync(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new UsageError(`the config file ${this.path} is locked by another agentctl`, `if none is running, remove ${lockPath}`);
      }
      // A short synchronous pause: writes take microseconds, and nothing else runs meanwhile.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }

  /** `target`: where config.json, a symbolic link, points. */
  private fileError(action: string, error: unknown, target?: string): UsageError {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'the file system is read-only'
          : code === 'ENOSPC'
            ? 'the disk is full'
            : code === 'EISDIR'
              ? 'it is a folder'
              : code === 'ENOENT'
                ? 'its folder does not exist'
                : (code ?? String(error));
    if (target !== undefined) {
      return new UsageError(
        `cannot ${action} the config file ${this.path}, a symbolic link to ${target}: ${reason}`,
        `make ${target} writable by you (agentctl writes it in place, or beside it and renames), or replace the link with a copy of that file`,
      );
    }
    return new UsageError(
      `cannot ${action} the config file ${this.path}: ${reason}`,
      `check the owner and mode of ${this.dir} (ls -ld ${this.dir}), or point XDG_CONFIG_HOME at a folder you can write`,
    );
  }
}

/** Where a chain of symbolic links ends (a file that may not exist yet); the path itself when it is no link. */
function linkTarget(path: string): string {
  let current = path;
  for (let hops = 0; hops < 40; hops++) {
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return current; // a link to a file not made yet: it is made there
    }
    if (!isLink) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  return current; // a loop of links: writing fails with ELOOP, reported as such
}

/** Writes a whole file, synced, mode 0600 ('w' creates or truncates; 'r+' rewrites an existing one in place). */
function writeFile(path: string, flags: 'w' | 'r+', text: string): void {
  const fd = openSync(path, flags, 0o600);
  try {
    fchmodSync(fd, 0o600); // it holds API keys, whatever mode it had
    const bytes = Buffer.from(text);
    writeSync(fd, bytes);
    ftruncateSync(fd, bytes.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function statSafe(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
