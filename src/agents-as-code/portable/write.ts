// Writes a verified export into a folder: one agents-as-code file per agent (DIR/<name>.md) and,
// beside them, the agent's verified files under DIR/portable/<name>/ (what the report points at).
// Every target is checked before the first write: an existing file is never overwritten, and
// nothing lands outside DIR (names from the archive are sanitised, the kept folders are created
// fresh, files are created exclusively so an existing link is never followed). A failure part-way
// removes what this run created.
import { createHash } from 'node:crypto';
import { lstat, mkdir, open, rm, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseAgentFile, serializeAgentFile, uniqueFileName } from '../files.js';
import { isAgentFileName } from '../folder.js';
import { GOBII_IMPORT, agentSpec, notRestored, type NotRestored } from './agent.js';
import type { PortableExport } from './archive.js';
import { PortableExportError, quoted } from './errors.js';

export const KEPT_FOLDER = 'portable';

export interface WrittenAgent {
  id: string;
  name: string;
  /** The agent file, relative to DIR. */
  file: string;
  /** The folder of its kept files, relative to DIR (`/`-separated). */
  kept: string;
  warnings: string[];
  not_restored: NotRestored[];
}

export interface PortableReport {
  format: string;
  dir: string;
  agents: WrittenAgent[];
  /** What restores all that the v1 API cannot. */
  gobii_import: string;
  skipped: Array<{ id: string; name: string; error: string }>;
}

interface Planned {
  agent: WrittenAgent;
  text: string;
  folder: string;
  /** Archive name -> path relative to the kept folder. */
  members: Map<string, string>;
}

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/** One path part as a file name every filesystem takes: no reserved character, device name or trailing dot. */
function diskSegment(part: string): string {
  let name = part
    .normalize('NFC')
    .replace(/[<>:"|?*\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '_')
    .replace(/[. ]+$/, (tail) => '_'.repeat(tail.length));
  if (RESERVED.test(name)) name = `_${name}`;
  while (Buffer.byteLength(name) > 200) name = [...name].slice(0, -1).join('');
  return name;
}

/** The agent folder's members, each under a sanitised path that no other member's takes (any case). */
function keptPaths(bundle: PortableExport, folder: string): Map<string, string> {
  const prefix = `agents/${folder}/`;
  const taken = new Set<string>();
  const paths = new Map<string, string>();
  for (const name of [...bundle.archive.members.keys()].sort()) {
    if (!name.startsWith(prefix)) continue;
    const parts = name.slice(prefix.length).split('/').map(diskSegment);
    let path = parts.join('/');
    for (let count = 2; taken.has(path.toLowerCase()); count++) path = `${parts.join('/')}~${count}`;
    taken.add(path.toLowerCase());
    paths.set(name, path);
  }
  return paths;
}

async function plan(bundle: PortableExport, dir: string): Promise<Planned[]> {
  const taken = new Set<string>();
  const planned: Planned[] = [];
  for (const entry of bundle.agents.filter((agent) => agent.selectable)) {
    const spec = await agentSpec(bundle, entry);
    // A name plan would skip (README.md) gets the next free one: every agent written is read back.
    let file = uniqueFileName(spec.name, taken);
    while (!isAgentFileName(file)) file = uniqueFileName(spec.name, taken);
    const text = serializeAgentFile(spec);
    // What is written must read back: the format's own parser is the judge.
    parseAgentFile(text, file);
    const stem = file.replace(/\.md$/, '');
    const kept = `${KEPT_FOLDER}/${stem}`;
    planned.push({
      agent: { id: entry.id, name: spec.name, file, kept, warnings: entry.warnings, not_restored: await notRestored(bundle, entry, spec, kept, dir) },
      text,
      folder: entry.folder,
      members: keptPaths(bundle, entry.folder),
    });
  }
  return planned;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Refuses before writing: an agent file or kept folder already there, or a `portable` that is not a folder. */
async function checkTargets(dir: string, planned: Planned[]): Promise<void> {
  for (const { agent } of planned) {
    for (const target of [agent.file, agent.kept]) {
      if (await exists(join(dir, target))) throw new PortableExportError('invalid_manifest', `${quoted(join(dir, target))} already exists; nothing was written (choose an empty folder)`);
    }
  }
  const keptRoot = join(dir, KEPT_FOLDER);
  if ((await exists(keptRoot)) && !(await lstat(keptRoot)).isDirectory()) {
    throw new PortableExportError('invalid_manifest', `${quoted(keptRoot)} exists and is not a folder; nothing was written`);
  }
}

/** Inside `root`, never above it (the names were checked already: this is the last guard). */
function inside(root: string, path: string): string {
  const target = resolve(root, path);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || resolve(rel) === rel) throw new PortableExportError('unsafe_path', `${quoted(path)} leaves the folder`);
  return target;
}

async function writeNew(path: string, write: (handle: import('node:fs/promises').FileHandle) => Promise<void>): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    await write(handle);
  } finally {
    await handle.close();
  }
}

async function extract(bundle: PortableExport, dir: string, item: Planned): Promise<void> {
  const root = join(dir, item.agent.kept);
  await mkdir(root);
  for (const [name, path] of item.members) {
    const target = inside(root, path);
    await mkdir(dirname(target), { recursive: true });
    const hash = createHash('sha256');
    await writeNew(target, (handle) =>
      bundle.archive.stream(bundle.archive.member(name), async (chunk) => {
        hash.update(chunk);
        await handle.write(chunk);
      }),
    );
    // The archive was verified before; a file changed since then is refused here too.
    if (hash.digest('hex') !== bundle.checksums.get(name)) throw new PortableExportError('checksum_mismatch', `${quoted(name)} changed while it was read`);
  }
}

/** Writes every exported agent into `dir` and returns the report; on a failure removes what it wrote. */
export async function writePortableExport(bundle: PortableExport, dir: string): Promise<PortableReport> {
  const planned = await plan(bundle, dir);
  await mkdir(dir, { recursive: true });
  await checkTargets(dir, planned);
  const created: string[] = [];
  try {
    await mkdir(join(dir, KEPT_FOLDER), { recursive: true });
    for (const item of planned) {
      const file = join(dir, item.agent.file);
      await writeNew(file, async (handle) => void (await handle.write(item.text)));
      created.push(file);
      created.push(join(dir, item.agent.kept));
      await extract(bundle, dir, item);
    }
  } catch (error) {
    for (const path of created.reverse()) await (path.endsWith('.md') ? unlink(path) : rm(path, { recursive: true, force: true })).catch(() => undefined);
    throw error;
  }
  return {
    format: bundle.format,
    dir,
    agents: planned.map((item) => item.agent),
    gobii_import: GOBII_IMPORT,
    skipped: bundle.agents.filter((agent) => !agent.selectable).map(({ id, name, error }) => ({ id, name, error })),
  };
}
