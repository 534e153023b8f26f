// The checks of the service's importer (api/services/portable_agent_import_archive.py,
// validate_portable_agent_archive), in its order: members, checksum index, every checksum, the
// manifest's format, its agents, each agent's own manifest and, for v2, its restoration metadata.
// Nothing is written until all of it has passed.
import { PortableExportError, quoted } from './errors.js';
import { DEFAULT_ZIP_LIMITS, ZipArchive, safeArchivePath, type ZipLimits } from './zip.js';

export const FORMAT_V1 = 'gobii.agent-portable-export/v1';
export const FORMAT_V2 = 'gobii.agent-portable-export/v2';
export type PortableFormat = typeof FORMAT_V1 | typeof FORMAT_V2;

/** MAX_METADATA_BYTES of the service: a JSON file it reads whole; the checksum index may be four times that. */
export const MAX_METADATA_BYTES = 5 * 1024 * 1024;
/** PORTABLE_AGENT_IMPORT_MAX_AGENTS. */
export const MAX_AGENTS = 1000;

export interface PortableAgentEntry {
  id: string;
  name: string;
  /** The folder's last part (`agents/<folder>`), or '' when the agent was not exported. */
  folder: string;
  snapshotAt: string | null;
  /** Exported and complete: only these are read into files. */
  selectable: boolean;
  error: string;
  warnings: string[];
}

export interface PortableExport {
  format: PortableFormat;
  agents: PortableAgentEntry[];
  archive: ZipArchive;
  /** Every member but checksums.sha256, with its verified SHA-256. */
  checksums: ReadonlyMap<string, string>;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const CHECKSUM_LINE = /^([0-9a-f]{64}) {2}(.+)$/s;
// Python's str.splitlines() breaks on these, not only on \n.
// eslint-disable-next-line no-control-regex -- the separators Python splits on
const LINE_BREAKS = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** str(uuid.UUID(value)): lower case, hyphenated, as the service compares agent IDs. */
function canonicalUuid(value: string): string {
  const hex = value.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function utf8(bytes: Buffer, name: string, code: 'invalid_json' | 'invalid_checksums'): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PortableExportError(code, `${quoted(name)} is not valid UTF-8`);
  }
}

/** A JSON object member, read whole under the metadata bound. */
export async function readJson(archive: ZipArchive, name: string): Promise<Record<string, unknown>> {
  const text = utf8(await archive.bytes(name, MAX_METADATA_BYTES), name, 'invalid_json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PortableExportError('invalid_json', `${quoted(name)} is not valid JSON`);
  }
  if (!isObject(value)) throw new PortableExportError('invalid_json', `${quoted(name)} must hold a JSON object`);
  return value;
}

async function parseChecksums(archive: ZipArchive): Promise<Map<string, string>> {
  const text = utf8(await archive.bytes('checksums.sha256', MAX_METADATA_BYTES * 4), 'checksums.sha256', 'invalid_checksums');
  const checksums = new Map<string, string>();
  for (const line of text.split(LINE_BREAKS)) {
    if (!line) continue;
    const match = CHECKSUM_LINE.exec(line);
    if (!match) throw new PortableExportError('invalid_checksums', 'checksums.sha256 is malformed');
    const path = safeArchivePath(match[2]!);
    if (checksums.has(path)) throw new PortableExportError('invalid_checksums', 'checksums.sha256 lists a path twice');
    checksums.set(path, match[1]!);
  }
  return checksums;
}

/** The index must list exactly the archive's files (but itself), and every file must hash to its line. */
async function verifyChecksums(archive: ZipArchive, checksums: Map<string, string>): Promise<void> {
  const expected = [...archive.members.keys()].filter((name) => name !== 'checksums.sha256').sort();
  if (expected.length !== checksums.size || expected.some((name) => !checksums.has(name))) {
    throw new PortableExportError('invalid_checksums', 'the checksum index does not match the archive\'s files');
  }
  for (const name of expected) {
    if ((await archive.sha256(name)) !== checksums.get(name)) {
      throw new PortableExportError('checksum_mismatch', `checksum verification failed for ${quoted(name)}`);
    }
  }
}

function checkFormat(manifest: Record<string, unknown>): PortableFormat {
  const format = typeof manifest.formatVersion === 'string' ? manifest.formatVersion : '';
  if (format === FORMAT_V1 || format === FORMAT_V2) return format;
  if (format.startsWith('gobii.agent-portable-export/')) {
    throw new PortableExportError('unsupported_version', `${quoted(format)} is newer than the formats read here (v1 and v2)`);
  }
  throw new PortableExportError('invalid_format', 'this ZIP is not a Gobii portable-agent export');
}

/** Opens and verifies the archive; the caller closes `archive`. */
export async function readPortableExport(path: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<PortableExport> {
  const archive = await ZipArchive.open(path, limits);
  try {
    for (const required of ['manifest.json', 'checksums.sha256']) archive.member(required);
    const checksums = await parseChecksums(archive);
    await verifyChecksums(archive, checksums);
    const manifest = await readJson(archive, 'manifest.json');
    const format = checkFormat(manifest);
    const agents = await readAgents(archive, manifest, format, checksums);
    if (!agents.some((agent) => agent.selectable)) throw new PortableExportError('no_importable_agents', 'the archive holds no exported agent');
    return { format, agents, archive, checksums };
  } catch (error) {
    archive.close();
    throw error;
  }
}

const invalid = (message: string) => new PortableExportError('invalid_manifest', message);

async function readAgents(archive: ZipArchive, manifest: Record<string, unknown>, format: PortableFormat, checksums: Map<string, string>) {
  const raw = manifest.agents;
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('the export manifest lists no agents');
  if (raw.length > MAX_AGENTS) throw new PortableExportError('too_many_agents', `the export lists ${raw.length} agents, over the limit of ${MAX_AGENTS}`);
  const ids = new Set<string>();
  const folders = new Set<string>();
  const agents: PortableAgentEntry[] = [];
  for (const row of raw) {
    if (!isObject(row)) throw invalid('the export\'s agent list is malformed');
    const id = String(row.id ?? '');
    if (!UUID.test(id)) throw invalid('an exported agent ID is not a UUID');
    const canonical = canonicalUuid(id);
    if (ids.has(canonical)) throw invalid('the export lists an agent ID twice');
    ids.add(canonical);
    agents.push(await readAgent(archive, { ...row, id: canonical }, format, checksums, folders));
  }
  return agents;
}

function folderName(value: string): string {
  const parts = safeArchivePath(value).split('/');
  if (parts.length !== 2 || parts[0] !== 'agents') throw invalid('an agent folder is outside agents/');
  return parts[1]!;
}

async function readAgent(
  archive: ZipArchive,
  row: Record<string, unknown>,
  format: PortableFormat,
  checksums: Map<string, string>,
  folders: Set<string>,
): Promise<PortableAgentEntry> {
  const id = String(row.id);
  const entry: PortableAgentEntry = {
    id,
    name: typeof row.name === 'string' && row.name.trim() ? row.name.trim().slice(0, 255) : 'Agent',
    folder: '',
    snapshotAt: typeof row.snapshotAt === 'string' ? row.snapshotAt : null,
    selectable: row.status === 'ready' && typeof row.folder === 'string' && row.folder !== '',
    error: typeof row.error === 'string' ? row.error : '',
    warnings: [],
  };
  if (!entry.selectable) {
    entry.error ||= 'This agent was not successfully exported.';
    return entry;
  }
  entry.folder = folderName(row.folder as string);
  if (folders.has(entry.folder.toLowerCase())) throw invalid('the export lists an agent folder twice');
  folders.add(entry.folder.toLowerCase());
  const prefix = `agents/${entry.folder}`;
  if (!archive.members.has(`${prefix}/manifest.json`) || !archive.members.has(`${prefix}/identity/profile.json`)) {
    return { ...entry, selectable: false, error: 'Required agent metadata is missing from this archive.' };
  }
  const agentManifest = await readJson(archive, `${prefix}/manifest.json`);
  const profile = await readJson(archive, `${prefix}/identity/profile.json`);
  if (String(agentManifest.agentId ?? '') !== id) throw invalid('an agent manifest ID does not match the bundle manifest');
  if (agentManifest.formatVersion !== format) throw invalid('an agent manifest format does not match the bundle manifest');
  if (typeof profile.name === 'string' && profile.name.trim()) entry.name = profile.name.trim().slice(0, 255);
  if (format === FORMAT_V1) {
    if (!archive.members.has(`${prefix}/files/filespaces.json`)) entry.warnings.push('This v1 export has no filespace access metadata (files/filespaces.json).');
    if (!archive.members.has(`${prefix}/skills/index.json`)) entry.warnings.push('This v1 export has no skill index; skills are read from their SKILL.md files.');
  } else {
    await checkV2Metadata(archive, prefix);
  }
  await checkDeclaredFiles(archive, prefix, profile, checksums);
  return entry;
}

const ROLES = new Set(['OWNER', 'WRITER', 'READER']);
const listOfObjects = (value: unknown): value is Array<Record<string, unknown>> => Array.isArray(value) && value.every(isObject);

/** _validate_v2_metadata: filespaces with their sharing, the skill index, the capability lists. */
async function checkV2Metadata(archive: ZipArchive, prefix: string): Promise<void> {
  const required = ['files/filespaces.json', 'skills/index.json', 'tools/capabilities.json'].map((name) => `${prefix}/${name}`);
  if (required.some((name) => !archive.members.has(name))) throw invalid('the v2 agent restoration metadata is incomplete');
  const filespaces = (await readJson(archive, required[0]!)).filespaces;
  const skills = (await readJson(archive, required[1]!)).skills;
  const capabilities = await readJson(archive, required[2]!);
  if (!listOfObjects(filespaces)) throw invalid('the v2 filespace metadata is malformed');
  for (const space of filespaces) {
    if (!UUID.test(String(space.sourceFilespaceId ?? '')) || !ROLES.has(space.role as string)) throw invalid('the v2 filespace metadata is malformed');
    const access = space.agentAccess;
    if (!listOfObjects(access) || access.some((row) => !UUID.test(String(row.agentId ?? '')) || !ROLES.has(row.role as string))) {
      throw invalid('the v2 filespace sharing metadata is malformed');
    }
  }
  if (!listOfObjects(skills)) throw invalid('the v2 skill metadata is malformed');
  for (const key of ['enabledTools', 'customTools', 'systemSkills']) {
    if (!listOfObjects(capabilities[key])) throw invalid('the v2 capability metadata is malformed');
  }
}

/** _validate_declared_agent_files: the avatar and every file the index names exist with their checksum. */
async function checkDeclaredFiles(archive: ZipArchive, prefix: string, profile: Record<string, unknown>, checksums: Map<string, string>): Promise<void> {
  const avatar = profile.avatar;
  if (isObject(avatar) && avatar.archivePath) {
    const path = `${prefix}/${safeArchivePath(String(avatar.archivePath))}`;
    if (!checksums.has(path) || (avatar.sha256 && avatar.sha256 !== checksums.get(path))) {
      throw new PortableExportError('checksum_mismatch', 'the avatar restoration metadata is inconsistent');
    }
  }
  const indexName = `${prefix}/files/index.json`;
  if (!checksums.has(indexName)) return;
  const rows = (await readJson(archive, indexName)).files;
  if (!Array.isArray(rows)) throw invalid('the agent file index is malformed');
  for (const row of rows) {
    if (!isObject(row)) throw invalid('the agent file index is malformed');
    if (!row.archivePath) continue;
    const path = safeArchivePath(String(row.archivePath));
    const resolved = row.archivePathScope === 'bundle' ? path : `${prefix}/${path}`;
    if (!checksums.has(resolved)) throw new PortableExportError('missing_file', `a file the agent's index declares is missing (${quoted(resolved)})`);
    if (row.sha256 && row.sha256 !== checksums.get(resolved)) throw new PortableExportError('checksum_mismatch', `a declared agent file checksum is invalid (${quoted(resolved)})`);
  }
}
