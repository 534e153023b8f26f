import type { FileNode, PersistentAgentRecord } from '../persistent-state.js';
import type { State } from '../state.js';
import { agentAccess } from './access.js';
import { isoformat, optionalBool, requiredString, ToolError, type Args } from './args.js';
import { filesOf, filespaceOf, writeBytes } from './filespace.js';
import { withResourceLinks, type ToolHandler } from './tool-result.js';
import { readTool } from './resources.js';

// The file tools (remote_mcp.py _tool_list_agent_files, _tool_upload_agent_file,
// _tool_read_agent_resource) and the attachments of gobii_send_agent_message
// (_decode_inline_attachments, attachment_helpers.resolve_filespace_attachments).

const INLINE_LIMIT = 10;
const INLINE_FIELDS = ['content_base64', 'mime_type', 'overwrite', 'path'];

export const FILE_TOOLS: Record<string, ToolHandler> = {
  gobii_list_agent_files: ({ state }, args) => {
    const agent = agentAccess(state, args.agent_id, args);
    // Ordered by parent, then type, then name (Postgres sorts a null parent last).
    const nodes = [...filesOf(agent)].sort((a, b) => order(a.parent_id, b.parent_id) || order(a.node_type, b.node_type) || order(a.name, b.name));
    return withResourceLinks({ filespace: filespaceOf(agent), nodes: nodes.map((node) => serializeNode(node, agent.id)) });
  },
  gobii_upload_agent_file: ({ state }, args) => {
    const agent = agentAccess(state, args.agent_id, args);
    const path = requiredString(args, 'path');
    const content = decodeBase64(requiredString(args, 'content_base64'), 'content_base64');
    const result = writeAgentFile(state, agent, { path, content, mimeType: mimeTypeOf(args.mime_type), overwrite: optionalBool(args.overwrite ?? false, 'overwrite') });
    return withResourceLinks(result);
  },
  gobii_read_agent_resource: readTool,
};

const order = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

export interface InlineFile {
  path: string;
  content: Buffer;
  mimeType: string;
  overwrite: boolean;
}

/** _decode_inline_attachments: at most 10, each checked (fields, base64, type) before any is written. */
export function decodeInlineAttachments(value: unknown): InlineFile[] {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return [];
  if (!Array.isArray(value)) throw new ToolError('attachments must be an array.');
  if (value.length > INLINE_LIMIT) throw new ToolError(`attachments supports at most ${INLINE_LIMIT} files.`, { field: 'attachments', maximum: INLINE_LIMIT });
  return value.map((item: unknown, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new ToolError('Each attachments item must be an object.', { field: `attachments[${index}]` });
    const fields = item as Args;
    const unknown = Object.keys(fields).filter((key) => !INLINE_FIELDS.includes(key)).sort();
    if (unknown.length > 0) throw new ToolError('Unsupported inline attachment field(s).', { field: `attachments[${index}]`, unsupported_fields: unknown, supported_fields: INLINE_FIELDS });
    return {
      path: requiredString(fields, 'path'),
      content: decodeBase64(requiredString(fields, 'content_base64'), `attachments[${index}].content_base64`),
      mimeType: mimeTypeOf(fields.mime_type, `attachments[${index}].mime_type`),
      overwrite: optionalBool(fields.overwrite ?? false, `attachments[${index}].overwrite`),
    };
  });
}

/** base64.b64decode(validate=True): the standard alphabet, padded to a multiple of 4. */
function decodeBase64(text: string, field: string): Buffer {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new ToolError(`${field} must be valid base64.`);
  return Buffer.from(text, 'base64');
}

function mimeTypeOf(value: unknown, field = 'mime_type'): string {
  if (value === undefined || value === null || value === '') return 'application/octet-stream';
  if (typeof value !== 'string') throw new ToolError(`${field} must be a string.`);
  return value.trim() || 'application/octet-stream';
}

/** _write_agent_file: the upload's record, or the filespace's refusal as the tool's error (its result the details). */
export function writeAgentFile(state: State, agent: PersistentAgentRecord, file: InlineFile) {
  const result = writeBytes(state, agent, file.content, file.path, file.mimeType, file.overwrite);
  if (result.status !== 'ok') throw new ToolError(result.message, result);
  const node = serializeNode(result.node, agent.id);
  return {
    status: 'ok',
    path: node.path,
    node_id: node.id,
    filename: node.name,
    resource_uri: node.resource_uri,
    mime_type: node.mime_type,
    size_bytes: node.size_bytes,
    checksum_sha256: node.checksum_sha256,
  };
}

/** _serialize_file_node: a file gets its gobii:// resource URI. */
export function serializeNode(node: FileNode, agentId: string) {
  return {
    id: node.id,
    parent_id: node.parent_id,
    name: node.name,
    path: node.path,
    node_type: node.node_type,
    size_bytes: node.size_bytes,
    mime_type: node.mime_type || null,
    checksum_sha256: node.checksum_sha256 || null,
    created_at: isoformat(node.created_at),
    updated_at: isoformat(node.updated_at),
    ...(node.node_type === 'file' ? { resource_uri: fileUri(agentId, node.id) } : {}),
  };
}

export const fileUri = (agentId: string, nodeId: string) => `gobii://agents/${agentId}/files/${nodeId}`;
export const attachmentUri = (agentId: string, attachmentId: string) => `gobii://agents/${agentId}/attachments/${attachmentId}`;

/** resolve_filespace_attachments: the paths (stripped, `/`-led, once each) must name files of the filespace; their timeline entries. */
export function resolveAttachments(state: State, agent: PersistentAgentRecord, raw: unknown[]): Record<string, unknown>[] {
  const paths: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string') throw new ToolError('Attachment paths must be strings.');
    let value = item.trim();
    if (value.startsWith('$[') && value.endsWith(']')) value = value.slice(2, -1).trim();
    if (value === '') throw new ToolError('Attachment path cannot be empty.');
    if (!value.startsWith('/')) value = `/${value}`;
    if (!paths.includes(value)) paths.push(value);
  }
  const nodes = paths.map((path) => filesOf(agent).find((node) => node.path === path && node.node_type === 'file'));
  const missing = paths.find((_path, index) => nodes[index] === undefined);
  if (missing !== undefined) throw new ToolError(`Attachment not found in default filespace: ${missing}`);
  return (nodes as FileNode[]).map((node) => attachmentEntry(state.newId(), agent, node));
}

/** The timeline's attachment entry (console/agent_chat/timeline.py _serialize_attachment) of a filespace file. */
function attachmentEntry(id: string, agent: PersistentAgentRecord, node: FileNode): Record<string, unknown> {
  return {
    id,
    filename: node.name,
    url: '',
    downloadUrl: `/console/api/agents/${agent.id}/files/download/?node_id=${node.id}`,
    filespacePath: node.path,
    filespaceNodeId: node.id,
    contentType: node.mime_type || null,
    fileSize: node.size_bytes,
    contentSha256: node.checksum_sha256 || null,
    fileSizeLabel: sizeLabel(node.size_bytes ?? 0),
  };
}

/** Django's filesizeformat, for the sizes a small file has. */
function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes}\u00a0byte${bytes === 1 ? '' : 's'}`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)}\u00a0${units[unit] as string}`;
}

/** _add_timeline_resource_uris: each attachment of a message event gets its resource URI, type, size and checksum. */
export function addResourceUris(events: Record<string, unknown>[], agentId: string): void {
  for (const event of events) {
    const message = event.message as { attachments?: Record<string, unknown>[] } | undefined;
    if (!message?.attachments?.length) continue;
    // Copies: the stored event (which the REST timeline shows) keeps the service's REST fields only.
    message.attachments = message.attachments.map((attachment) => ({ ...attachment }));
    for (const attachment of message.attachments) {
      const nodeId = attachment.filespaceNodeId;
      if (typeof nodeId === 'string' && nodeId) attachment.resource_uri = fileUri(agentId, nodeId);
      else if (typeof attachment.id === 'string' && attachment.id) attachment.resource_uri = attachmentUri(agentId, attachment.id);
      if (!('mime_type' in attachment)) attachment.mime_type = attachment.contentType;
      if (!('size_bytes' in attachment)) attachment.size_bytes = attachment.fileSize;
      if (!('checksum_sha256' in attachment)) attachment.checksum_sha256 = attachment.contentSha256;
    }
  }
}
