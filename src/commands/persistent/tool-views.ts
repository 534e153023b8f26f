// How the commands of the service's MCP tools show what they answer: columns of a list, rows of a
// record. The service's names and paths are shown (escaped on a terminal by the output layer), never
// used as anything else.
import type { FileNode, PeerLink, UploadedFile } from '../../api/agent-tools.js';
import type { DetailRow } from '../../output/output.js';
import type { Column } from '../../output/table.js';

/** A link's columns: which two agents, whether messages flow, the budget and the service's health word. */
export const LINK_COLUMNS: Column<PeerLink>[] = [
  { key: 'id' },
  { key: 'agent_a', header: 'agent', value: (link) => link.agent_a.name, maxWidth: 24 },
  { key: 'agent_b', header: 'peer', value: (link) => link.agent_b.name, maxWidth: 24 },
  { key: 'is_enabled', header: 'enabled', value: (link) => (link.is_enabled ? 'yes' : 'no') },
  { key: 'budget', value: linkBudget },
  { key: 'health', value: (link) => link.health?.status ?? '', optional: true },
  { key: 'created_at', header: 'created', optional: true },
];

function linkBudget(link: PeerLink): string {
  return link.messages_per_window === undefined ? '' : `${link.messages_per_window} messages per ${link.window_hours ?? '?'} h`;
}

export function linkRows(link: PeerLink): DetailRow[] {
  const rows: DetailRow[] = [
    { label: 'id', value: link.id },
    { label: 'agent', value: `${link.agent_a.id} (${link.agent_a.name})` },
    { label: 'peer', value: `${link.agent_b.id} (${link.agent_b.name})` },
    { label: 'enabled', value: link.is_enabled },
    { label: 'budget', value: linkBudget(link) },
    { label: 'health', value: link.health?.status },
    ...(link.health?.issues ?? []).map((issue) => ({ label: 'issue', value: `${issue.agent_id}: ${issue.reason}` })),
  ];
  return rows.filter((row) => row.value !== undefined && row.value !== '');
}

export const FILE_COLUMNS: Column<FileNode>[] = [
  { key: 'path', maxWidth: 48 },
  { key: 'node_type', header: 'type' },
  { key: 'size_bytes', header: 'size', value: (node) => node.size_bytes ?? '' },
  { key: 'mime_type', header: 'mime type', optional: true },
  { key: 'updated_at', header: 'updated', optional: true },
  { key: 'id', optional: true },
];

export const uploadRows = (file: UploadedFile): DetailRow[] => [
  { label: 'path', value: file.path },
  { label: 'id', value: file.node_id },
  { label: 'size', value: file.size_bytes },
  { label: 'mime_type', value: file.mime_type },
  { label: 'sha256', value: file.checksum_sha256 },
];
