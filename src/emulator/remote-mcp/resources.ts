import { createHash } from 'node:crypto';
import type { FileNode, PersistentAgentRecord } from '../persistent-state.js';
import type { State } from '../state.js';
import { agentAccess } from './access.js';
import { requiredString, ToolError, type Args } from './args.js';
import type { McpServices } from './context.js';
import { filesOf, MAX_FILE_BYTES } from './filespace.js';
import { ToolResponse } from './tool-result.js';

// gobii:// resources (api/services/remote_mcp_resources.py): `gobii://agents/<agent>/files/<node>`
// and `gobii://agents/<agent>/attachments/<attachment>`, read only through the agent they name,
// as text for a text type and base64 otherwise; any failure is "not found or inaccessible".

export class ResourceError extends Error {}

const NATIVE_IMAGES = new Set(['image/gif', 'image/jpeg', 'image/png', 'image/webp']);
const UUID_TEXT = /^(?:urn:)?(?:uuid:)?\{?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}\}?$/;
const MIME = /^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*\/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*$/;

interface Resource {
  uri: string;
  name: string;
  mimeType: string;
  content: Buffer;
}

/** resources/read: `{contents: [...]}`, or a ResourceError (the view's -32002). */
export function readResource({ state }: McpServices, uri: string): Record<string, unknown> {
  return { contents: [contentsOf(find(state, uri))] };
}

/** gobii_read_agent_resource: the resource's facts, and the content as an image or an embedded resource. */
export function readTool({ state }: McpServices, args: Args): ToolResponse {
  const uri = requiredString(args, 'uri');
  let resource: Resource;
  try {
    resource = find(state, uri);
  } catch (error) {
    if (error instanceof ResourceError) throw new ToolError('Resource not found or inaccessible.');
    throw error;
  }
  const contents = contentsOf(resource);
  const native = 'blob' in contents && NATIVE_IMAGES.has(resource.mimeType) ? { type: 'image', data: contents.blob, mimeType: resource.mimeType } : { type: 'resource', resource: contents };
  const facts = { uri: resource.uri, name: resource.name, mime_type: resource.mimeType, size_bytes: resource.content.length, checksum_sha256: sha256(resource.content) };
  return new ToolResponse({ resource: facts }, [native]);
}

/** parse_agent_resource_uri, the agent's access, then read_agent_resource. */
function find(state: State, uri: string): Resource {
  const match = /^gobii:\/\/agents(\/[^?#;]*)$/.exec(uri);
  const parts = match ? (match[1] as string).split('/').filter(Boolean) : [];
  if (parts.length !== 3 || !UUID_TEXT.test(parts[0] as string) || !UUID_TEXT.test(parts[2] as string) || !['files', 'attachments'].includes(parts[1] as string)) throw new ResourceError();
  let agent: PersistentAgentRecord;
  try {
    agent = agentAccess(state, parts[0], {});
  } catch (error) {
    if (error instanceof ToolError) throw new ResourceError();
    throw error;
  }
  const id = agentAccessId(parts[2] as string);
  const node = parts[1] === 'files' ? filesOf(agent).find((item) => item.id === id && item.node_type === 'file') : attachedNode(agent, id);
  if (!node?.content) throw new ResourceError();
  return checked(uri, node);
}

const agentAccessId = (text: string) => text.replace(/^urn:/, '').replace(/^uuid:/, '').replace(/[{}-]/g, '').toLowerCase().replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** The filespace file behind one of the agent's message attachments. */
function attachedNode(agent: PersistentAgentRecord, attachmentId: string): FileNode | undefined {
  for (const event of agent.events) {
    const attachments = (event.data.message as { attachments?: Record<string, unknown>[] } | undefined)?.attachments ?? [];
    const found = attachments.find((attachment) => attachment.id === attachmentId);
    if (found) return filesOf(agent).find((node) => node.id === found.filespaceNodeId);
  }
  return undefined;
}

/** _read_file_field: the size limit and the integrity check, then the normalized MIME type. */
function checked(uri: string, node: FileNode): Resource {
  const content = Buffer.from(node.content as string, 'base64');
  if (content.length > MAX_FILE_BYTES) throw new ResourceError();
  if (node.checksum_sha256 && node.checksum_sha256 !== sha256(content)) throw new ResourceError();
  const candidate = (node.mime_type ?? '').trim().toLowerCase();
  return { uri, name: node.name || 'attachment', mimeType: MIME.test(candidate) ? candidate : 'application/octet-stream', content };
}

/** AgentResource.mcp_contents: text for a text type that is UTF-8, else base64. */
function contentsOf(resource: Resource): Record<string, string> {
  const { mimeType } = resource;
  const textual = mimeType.startsWith('text/') || ['application/json', 'application/ld+json', 'application/xml'].includes(mimeType) || mimeType.endsWith('+json') || mimeType.endsWith('+xml');
  if (textual) {
    try {
      return { uri: resource.uri, mimeType, text: new TextDecoder('utf-8', { fatal: true }).decode(resource.content) };
    } catch {
      // not UTF-8: sent as a blob
    }
  }
  return { uri: resource.uri, mimeType, blob: resource.content.toString('base64') };
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
