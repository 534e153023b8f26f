// Reading a folder of agent files. The folder may come from anyone's pull request, so it is read as
// hostile: only regular `.md` files directly in it (a symbolic link could make the charter of an
// agent out of ~/.ssh/id_ed25519 and send it to the service), each of bounded size, at most
// MAX_AGENT_FILES of them, and two files may not claim one agent name.
import { closeSync, constants, fstatSync, openSync, readSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { sep } from 'node:path';
import { fileKind, type FileType } from '../contract/file-kind.js';
import { UsageError } from '../errors.js';
import { AgentFileError, MAX_AGENT_FILE_BYTES, parseAgentFile, type AgentSpec } from './files.js';

/** One file of the folder and what it says. `file` is its name in the folder (no path). */
export interface DesiredAgent {
  file: string;
  spec: AgentSpec;
}

/** Most agent files one folder may hold. */
export const MAX_AGENT_FILES = 10_000;

/** Files of the folder that are not agents. */
const NOT_AGENTS = new Set(['readme.md', 'changelog.md']);

/** Whether a name read from the lock file or the folder is a plain agent file name of the folder. */
export function isAgentFileName(name: string): boolean {
  return /^[^/\\\0]{1,200}\.md$/i.test(name) && !name.startsWith('.') && !NOT_AGENTS.has(name.toLowerCase());
}

/** Every agent file of `dir`, sorted by name; throws AgentFileError for the first file refused. */
export async function readAgentFolder(dir: string): Promise<DesiredAgent[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`the folder ${dir} does not exist`, 'give the folder of agent files with --dir DIR (write one with: agentctl export --dir DIR)');
    throw new UsageError(`cannot read the folder ${dir}: ${(error as Error).message}`);
  }
  const files = entries.filter((entry) => isAgentFileName(entry.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (files.length > MAX_AGENT_FILES) throw new UsageError(`the folder ${dir} holds ${files.length} agent files; at most ${MAX_AGENT_FILES} are read`);
  const agents: DesiredAgent[] = [];
  const byName = new Map<string, string>();
  for (const entry of files) {
    const file = entry.name;
    const spec = parseAgentFile(readAgentFile(`${dir}${sep}${file}`, entry), file);
    const other = byName.get(spec.name);
    if (other !== undefined) throw new AgentFileError(file, 2, 'name', `"${spec.name}" is the name in ${other} too: each agent file names an agent of its own`);
    byName.set(spec.name, file);
    agents.push({ file, spec });
  }
  return agents;
}

/** The file types a directory entry can tell (all false: the filesystem did not say, so fstat decides). */
function toldType(entry: Dirent): boolean {
  return entry.isFile() || entry.isDirectory() || entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice();
}

/** One buffer for every file: each is read whole and decoded before the next is opened. */
let buffer: Buffer | undefined;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A file's text, refused unless a regular file of bounded size. Its type is the directory entry's
 * (no stat per file); it is opened without following a link (one swapped in after the folder was
 * listed fails to open) and without blocking (a FIFO swapped in reads as empty or fails, never
 * waits), and read to at most one byte past the bound. Read synchronously: a thousand small files
 * cost ~10x more through the promise API's thread pool.
 */
function readAgentFile(path: string, entry: Dirent): string {
  const file = entry.name;
  if (toldType(entry) && !entry.isFile()) throw notRegular(file, entry);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw notRegular(file, entry, true);
    throw new AgentFileError(file, 1, 'file', `cannot be read: ${(error as Error).message}`);
  }
  try {
    if (!toldType(entry)) {
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw notRegular(file, stats);
    }
    const bytes = readBounded(fd, file);
    try {
      return utf8.decode(bytes);
    } catch {
      throw new AgentFileError(file, 1, 'file', 'is not UTF-8 text');
    }
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes (a view of the shared buffer, valid until the next file is read). */
function readBounded(fd: number, file: string): Buffer {
  buffer ??= Buffer.allocUnsafe(MAX_AGENT_FILE_BYTES + 1);
  let length = 0;
  try {
    for (let read = 1; read > 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
  } catch (error) {
    throw new AgentFileError(file, 1, 'file', `cannot be read: ${(error as Error).message}`);
  }
  if (length > MAX_AGENT_FILE_BYTES) {
    const size = fstatSync(fd).size; // only now: the words say how large it is
    throw new AgentFileError(file, 1, 'file', `is ${Math.max(size, length)} bytes; an agent file is at most ${MAX_AGENT_FILE_BYTES} bytes`);
  }
  return buffer.subarray(0, length);
}

function notRegular(file: string, kind: FileType, link = false): AgentFileError {
  if (link || kind.isSymbolicLink()) return new AgentFileError(file, 1, 'file', 'is a symbolic link: agent files are read only as regular files of the folder');
  return new AgentFileError(file, 1, 'file', `is ${fileKind(kind)}, not a regular file`);
}
