import { createHash } from 'node:crypto';
import type { FileNode, PersistentAgentRecord } from '../persistent-state.js';
import type { State } from '../state.js';

// An agent's default filespace as api/agent/files/filespace_service.py write_bytes_to_dir keeps it:
// paths normalized (_normalize_write_path), folders made on the way, a taken name given a
// " (2)" suffix unless overwrite is asked (dedupe_name), and the service's size limit.

/** MAX_FILE_SIZE (config/settings.py): 10 MB, for a write and for a read. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export type WriteResult = { status: 'ok'; node: FileNode } | { status: 'error'; message: string };

const UNSAFE = /[^-\w.+@]/gu;

export function filesOf(agent: PersistentAgentRecord): FileNode[] {
  return (agent.files ??= []);
}

/** write_bytes_to_dir. */
export function writeBytes(state: State, agent: PersistentAgentRecord, content: Buffer, rawPath: string, mimeType: string, overwrite: boolean): WriteResult {
  if (content.length > MAX_FILE_BYTES) return { status: 'error', message: `File exceeds maximum allowed size (${content.length} bytes > ${MAX_FILE_BYTES} bytes).` };
  const path = normalizePath(rawPath);
  if (!path) return { status: 'error', message: 'path must include a filename.' };
  let parent: FileNode | null = null;
  for (const [index, name] of path.dirs.entries()) {
    const found = childOf(agent, parent, name);
    // The top folder goes through get_or_create_dir, whose save a file of that name makes fail
    // (unique_name_per_filespace_root); deeper ones through _ensure_nested_dirs, which says so.
    if (found && found.node_type !== 'dir') return { status: 'error', message: index === 0 ? `Failed to access the ${name} directory.` : 'Path conflicts with an existing file.' };
    parent = found ?? addNode(state, agent, parent, name, 'dir');
  }
  const checksum = createHash('sha256').update(content).digest('hex');
  const existing = filesOf(agent).find((node) => node.path === path.full);
  if (existing && existing.node_type !== 'file') return { status: 'error', message: 'Path points to a directory, not a file.' };
  if (existing && overwrite) {
    Object.assign(existing, { mime_type: mimeType, checksum_sha256: checksum, size_bytes: content.length, content: content.toString('base64'), updated_at: state.now() });
    return { status: 'ok', node: existing };
  }
  const node = addNode(state, agent, parent, dedupe(agent, parent, path.file), 'file');
  Object.assign(node, { mime_type: mimeType, checksum_sha256: checksum, size_bytes: content.length, content: content.toString('base64') });
  return { status: 'ok', node };
}

/** _normalize_write_path: the folders (spaces to _, unsafe characters dropped) and the file name, or null. */
function normalizePath(raw: string): { dirs: string[]; file: string; full: string } | null {
  const path = raw.trim();
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (path === '' || base === '' || base === '.' || base === '..') return null;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  if (parts.length === 0) return null;
  const dirs = parts.slice(0, -1).map((part) => part.replace(/ /g, '_').replace(UNSAFE, ''));
  if (dirs.some((part) => part === '')) return null;
  const file = (parts[parts.length - 1] as string).trim().replace(/ /g, '_').replace(UNSAFE, '');
  if (file === '') return null;
  return { dirs, file, full: `/${[...dirs, file].join('/')}` };
}

function childOf(agent: PersistentAgentRecord, parent: FileNode | null, name: string): FileNode | undefined {
  return filesOf(agent).find((node) => node.parent_id === (parent?.id ?? null) && node.name === name);
}

/** dedupe_name: `stem (2).ext`, `stem (3).ext`, ... until free. */
function dedupe(agent: PersistentAgentRecord, parent: FileNode | null, name: string): string {
  if (!childOf(agent, parent, name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot >= 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let i = 2; ; i++) if (!childOf(agent, parent, `${stem} (${i})${ext}`)) return `${stem} (${i})${ext}`;
}

function addNode(state: State, agent: PersistentAgentRecord, parent: FileNode | null, name: string, type: 'file' | 'dir'): FileNode {
  const stamp = state.now();
  const node: FileNode = {
    id: state.newId(),
    parent_id: parent?.id ?? null,
    name,
    path: `${parent?.path ?? ''}/${name}`,
    node_type: type,
    size_bytes: null,
    mime_type: null,
    checksum_sha256: null,
    created_at: stamp,
    updated_at: stamp,
  };
  filesOf(agent).push(node);
  state.touch();
  return node;
}

/** The default filespace's id and name (get_or_create_default_filespace: "<agent name> Files"), stable per agent. */
export function filespaceOf(agent: PersistentAgentRecord): { id: string; name: string } {
  const hex = createHash('sha256').update(`${agent.id}:filespace`).digest('hex');
  return { id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-b${hex.slice(17, 20)}-${hex.slice(20, 32)}`, name: `${agent.name} Files` };
}
