// Portable exports as the service writes them, built in the test (no binary fixture): the files of
// api/services/portable_agent_export_archive.py (PortableAgentArchiveBuilder) and the root files of
// api/tasks/portable_agent_exports.py (_write_root_files: manifest.json, checksums.sha256), zipped
// as _zip_staging_directory does (DEFLATED, sorted). The ZIP writer is a small one of our own, not a
// library: tests need archives no honest writer makes (lying sizes, links, climbing names).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipItem {
  name: string;
  data: Buffer;
  /** 8 (deflated, the exporter's) or 0 (stored). */
  method?: 0 | 8;
  /** Sizes and CRC the directory declares, when a test makes it lie. */
  declaredSize?: number;
  compressed?: Buffer;
  crc?: number;
  externalAttr?: number;
  flags?: number;
}

const u16 = (value: number) => Buffer.from([value & 0xff, (value >>> 8) & 0xff]);
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
};

/** A ZIP of these items, laid out as Python's zipfile writes one (local headers, directory, end record). */
export function zipBytes(items: ZipItem[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const method = item.method ?? 8;
    const compressed = item.compressed ?? (method === 8 ? deflateRawSync(item.data) : item.data);
    const name = Buffer.from(item.name, 'utf8');
    const flags = (item.flags ?? 0) | ([...item.name].some((char) => char.charCodeAt(0) > 0x7f) ? 0x800 : 0);
    const crc = item.crc ?? crc32(item.data);
    const size = item.declaredSize ?? item.data.length;
    const common = Buffer.concat([u16(20), u16(flags), u16(method), u16(0), u16(0x21), u32(crc), u32(compressed.length), u32(size), u16(name.length), u16(0)]);
    const local = Buffer.concat([u32(0x04034b50), common, name]);
    central.push(Buffer.concat([u32(0x02014b50), u16((3 << 8) | 20), common, u16(0), u16(0), u16(0), u32(item.externalAttr ?? (0o100644 << 16) >>> 0), u32(offset), name]));
    parts.push(local, compressed);
    offset += local.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(items.length), u16(items.length), u32(directory.length), u32(offset), u16(0)]);
  return Buffer.concat([...parts, directory, end]);
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
const jsonl = (rows: unknown[]) => Buffer.from(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export const FORMAT_V1 = 'gobii.agent-portable-export/v1';
export const FORMAT_V2 = 'gobii.agent-portable-export/v2';

export interface ExportedAgent {
  id: string;
  name: string;
  charter?: string;
  schedule?: string;
}

/** The files of one agent folder, as PortableAgentArchiveBuilder.build writes them (v2 adds filespaces and the skill index). */
function agentFiles(format: string, agent: ExportedAgent, folder: string): Record<string, Buffer> {
  const p = `agents/${folder}`;
  const now = '2026-08-20T10:00:00+00:00';
  const skill = Buffer.from('---\nname: "Weekly digest"\ndescription: "Sum up the week"\nversion: 2\n---\n\n# Weekly digest\n\nCollect the week.\n');
  const workspaceFile = Buffer.from('region,price\nOslo,120\n');
  const files: Record<string, Buffer> = {
    [`${p}/identity/profile.json`]: json({
      id: agent.id, name: agent.name, charter: agent.charter ?? 'Watch prices.', shortDescription: 'Price helper', miniDescription: '', visualDescription: '',
      tags: ['prices'], preferredIntelligenceTier: 'standard', isActiveAtExport: true, lifeState: 'active', proactiveOptIn: true,
      planningState: 'completed', ownerInstructionsSource: 'personal', ownerInstructions: '', avatar: null,
    }),
    [`${p}/identity/instructions.md`]: Buffer.from(`# ${agent.name}\n\n## Charter\n\n${agent.charter ?? 'Watch prices.'}\n`),
    [`${p}/memory/snapshots.jsonl`]: jsonl([{ id: 'a', kind: 'communications', snapshotUntil: now, createdAt: now, summary: 'The owner likes short mails.' }]),
    [`${p}/memory/current-state.md`]: Buffer.from(`# Current state for ${agent.name}\n\n## Current plan\n\nCheck daily.\n`),
    [`${p}/work/plan.json`]: json({ state: 'completed', plan: 'Check daily.', completedAt: now, deliverables: [] }),
    [`${p}/work/tasks.json`]: json({ tasks: [{ id: 'c1', title: 'Compare Rome', status: 'todo' }] }),
    [`${p}/work/schedules.json`]: json({
      schedules: agent.schedule ? [{ id: 'primary', kind: 'legacy', expression: agent.schedule, originalEnabled: true, enabledOnImport: false }] : [],
      importPolicy: 'disabled',
    }),
    [`${p}/work/pending-inputs.json`]: json({ requests: [] }),
    [`${p}/communications/endpoints.json`]: json({ endpoints: [{ id: 'e1', channel: 'email', address: 'agent@old.example', isPrimary: true }] }),
    [`${p}/communications/contacts.json`]: json({ contacts: [] }),
    [`${p}/communications/allowlist.json`]: json({ policy: 'manual', contactApprovalMode: 'require_approval', emailSendingMode: 'all', contactsFile: 'contacts.json' }),
    [`${p}/communications/webhooks.json`]: json({ outbound: [], inbound: [], secretValuesIncluded: false }),
    [`${p}/communications/relationships.json`]: json({ peerAgents: [] }),
    [`${p}/skills/weekly-digest--v2/SKILL.md`]: skill,
    [`${p}/tools/mcp-servers.json`]: json({ servers: [] }),
    [`${p}/tools/capabilities.json`]: json({ enabledTools: [], customTools: [], systemSkills: [] }),
    [`${p}/connections/requirements.json`]: json({ credentialsIncluded: false, secretRequirements: [{ scope: 'agent', name: 'Shop login', key: 'shop_password' }] }),
    [`${p}/connections/README.md`]: Buffer.from('# Reconnect services\n'),
    [`${p}/history/messages.jsonl`]: jsonl([{ id: 'm1', body: 'Hello' }, { id: 'm2', body: 'Hi' }]),
    [`${p}/history/transcript.md`]: Buffer.from('# Conversation history\n'),
    [`${p}/history/steps.jsonl`]: Buffer.alloc(0),
    [`${p}/history/tool-calls.jsonl`]: Buffer.alloc(0),
    [`${p}/files/workspace/prices.csv`]: workspaceFile,
    [`${p}/files/index.json`]: json({ files: [{ id: 'f1', category: 'workspace', logicalPath: '/prices.csv', archivePath: 'files/workspace/prices.csv', sha256: sha(workspaceFile), sizeBytes: workspaceFile.length }] }),
    [`${p}/state/sqlite/tables.json`]: json({ tables: [], unavailable: true }),
    [`${p}/redaction-report.json`]: json({ total: 0, counts: {} }),
    [`${p}/README.md`]: Buffer.from(`# Portable export for ${agent.name}\n`),
    [`${p}/manifest.json`]: json({ formatVersion: format, agentId: agent.id, agentName: agent.name, snapshotAt: now, folderName: folder, counts: { messages: 2, steps: 0, files: 1, warnings: 0 } }),
  };
  if (format === FORMAT_V2) {
    files[`${p}/files/filespaces.json`] = json({ filespaces: [], sharingPolicy: 'recreate-when-all-owners-selected-otherwise-private-copy' });
    files[`${p}/skills/index.json`] = json({
      skills: [{ name: 'Weekly digest', description: 'Sum up the week', version: 2, tools: [], secrets: [], instructions: 'Collect the week.', archivePath: 'skills/weekly-digest--v2/SKILL.md' }],
    });
  }
  return files;
}

/** The export's files (path -> bytes), root manifest included, checksums.sha256 not yet. */
export function exportFiles(format: string, agents: ExportedAgent[]): Record<string, Buffer> {
  let files: Record<string, Buffer> = {};
  const manifestAgents = agents.map((agent) => {
    const folder = `${agent.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}--${agent.id.replace(/-/g, '').slice(0, 8)}`;
    files = { ...files, ...agentFiles(format, agent, folder) };
    return { id: agent.id, name: agent.name, folder: `agents/${folder}`, status: 'ready', snapshotAt: '2026-08-20T10:00:00+00:00', warningCount: 0, redactionCount: 0, error: null };
  });
  files['manifest.json'] = json({ formatVersion: format, exportId: '00000000-0000-4000-8000-000000000001', scope: 'personal', agents: manifestAgents });
  files['README.md'] = Buffer.from('# Gobii portable agent export\n');
  files['shared-files/index.json'] = json({ references: [] });
  return files;
}

/** checksums.sha256 as _write_root_files writes it: sorted paths, two spaces, one line each. */
export function withChecksums(files: Record<string, Buffer>, overrides: Record<string, string> = {}): ZipItem[] {
  const sums = { ...Object.fromEntries(Object.entries(files).map(([name, data]) => [name, sha(data)])), ...overrides };
  const index = Object.keys(sums).sort().map((name) => `${sums[name]}  ${name}`).join('\n');
  return [...Object.keys(files).sort(), 'checksums.sha256']
    .sort()
    .map((name) => ({ name, data: name === 'checksums.sha256' ? Buffer.from(`${index}\n`) : files[name]! }));
}

/** Writes a ZIP into `dir` and returns its path. */
export function saveZip(dir: string, name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}
