// Reading a folder of agent files. The folder may come from anyone's pull request, so it is read as
// hostile: only regular `.md` files directly in it (a symbolic link could make the charter of an
// agent out of ~/.ssh/id_ed25519 and send it to the service), each of bounded size, at most
// MAX_AGENT_FILES of them, and two files may not claim one agent name.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileKind } from '../contract/file-kind.js';
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
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`the folder ${dir} does not exist`, 'give the folder of agent files with --dir DIR (write one with: agentctl export --dir DIR)');
    throw new UsageError(`cannot read the folder ${dir}: ${(error as Error).message}`);
  }
  const files = names.filter(isAgentFileName).sort();
  if (files.length > MAX_AGENT_FILES) throw new UsageError(`the folder ${dir} holds ${files.length} agent files; at most ${MAX_AGENT_FILES} are read`);
  const agents: DesiredAgent[] = [];
  const byName = new Map<string, string>();
  for (const file of files) {
    const spec = parseAgentFile(readAgentFile(join(dir, file), file), file);
    const other = byName.get(spec.name);
    if (other !== undefined) throw new AgentFileError(file, 2, 'name', `"${spec.name}" is the name in ${other} too: each agent file names an agent of its own`);
    byName.set(spec.name, file);
    agents.push({ file, spec });
  }
  return agents;
}

/**
 * A file's text: opened without following a link and without blocking (a FIFO), refused unless a
 * regular file of bounded size. Read synchronously: a thousand small files cost ~10x more through
 * the promise API's thread pool, and plan's list of the service is in flight meanwhile.
 */
function readAgentFile(path: string, file: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new AgentFileError(file, 1, 'file', 'is a symbolic link: agent files are read only as regular files of the folder');
    throw new AgentFileError(file, 1, 'file', `cannot be read: ${(error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new AgentFileError(file, 1, 'file', `is ${fileKind(stats)}, not a regular file`);
    if (stats.size > MAX_AGENT_FILE_BYTES) throw new AgentFileError(file, 1, 'file', `is ${stats.size} bytes; an agent file is at most ${MAX_AGENT_FILE_BYTES} bytes`);
    const bytes = readFileSync(fd);
    if (bytes.length > MAX_AGENT_FILE_BYTES) throw new AgentFileError(file, 1, 'file', `is larger than ${MAX_AGENT_FILE_BYTES} bytes`);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new AgentFileError(file, 1, 'file', 'is not UTF-8 text');
    }
  } finally {
    closeSync(fd);
  }
}
