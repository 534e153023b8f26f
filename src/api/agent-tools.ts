// The rest of the service's MCP endpoint (api/services/remote_mcp.py), beside the conversation tools
// of service-mcp.ts: peer links, an agent's files, its config options and its debug trace. Each call
// is one tools/call through callServiceTool (read-only tools retried, the rest sent once); each answer
// is checked for what agentctl reads of it, the rest kept as the service sent it.
import type { ApiClient } from './client.js';
import { MissingFileError, ResponseShapeError, ServiceToolMissingError } from './errors.js';
import { SERVICE_MCP, ServiceMcpMissingError, ServiceToolError, callServiceTool, callServiceToolContent, isObject, type ToolOptions } from './service-mcp.js';
import type { AgentRef, FileListing, FileNode, PeerLink, UploadedFile } from './agent-tool-records.js';

export type { AgentRef, FileListing, FileNode, PeerLink, UploadedFile };

/**
 * The first gobii-platform version with each tool (git tags of the commits that added them): links,
 * files and config options came with the endpoint; the trace in 2.21.0 (530741b7e); reading a file in
 * 2.31.0 ("MCP-native agent attachments", #1472).
 */
export const TOOL_SINCE: Record<string, string> = {
  gobii_get_agent_debug_trace: '2.21.0',
  gobii_read_agent_resource: '2.31.0',
};
const since = (tool: string) => TOOL_SINCE[tool] ?? SERVICE_MCP.since;

/** Turns the two ways an older deployment lacks a tool into one error naming the version that has it. */
function missing(client: ApiClient, tool: string) {
  return (error: unknown): never => {
    if (error instanceof ServiceMcpMissingError || (error instanceof ServiceToolError && error.problem.startsWith('Unknown tool'))) {
      throw new ServiceToolMissingError(client.baseUrl, tool, since(tool));
    }
    throw error;
  };
}

async function call(client: ApiClient, tool: string, args: Record<string, unknown>, options: ToolOptions, ok: (data: Record<string, unknown>) => boolean) {
  const data = await callServiceTool(client, tool, args, options).catch(missing(client, tool));
  if (!ok(data)) throw new ResponseShapeError(`the service's ${tool} answered in a shape agentctl does not know`);
  return data;
}

const string = (value: unknown): value is string => typeof value === 'string';
const list = (value: unknown, item: (entry: Record<string, unknown>) => boolean) => Array.isArray(value) && value.every((entry) => isObject(entry) && item(entry));

/** An agent as a link names it. */
/** What a read of a resource answered: its description and its bytes, as the service sent them. */
export interface ResourceRead {
  resource: { uri: string; name: string; mime_type: string; size_bytes: number; checksum_sha256: string };
  content: Uint8Array;
}

const agentRef = (value: unknown) => isObject(value) && string(value.id) && string(value.name);
const isLink = (link: Record<string, unknown>) => string(link.id) && agentRef(link.agent_a) && agentRef(link.agent_b) && typeof link.is_enabled === 'boolean';
const isNode = (node: Record<string, unknown>) => string(node.id) && string(node.name) && string(node.path) && string(node.node_type);

/** The bytes of a read's content item: a resource's text or blob, or an image's data. */
function contentBytes(tool: string, content: unknown[]): Uint8Array {
  for (const item of content) {
    if (!isObject(item)) continue;
    if (item.type === 'image' && string(item.data)) return Buffer.from(item.data, 'base64');
    const resource = item.type === 'resource' && isObject(item.resource) ? item.resource : undefined;
    if (resource && string(resource.text)) return Buffer.from(resource.text, 'utf8');
    if (resource && string(resource.blob)) return Buffer.from(resource.blob, 'base64');
  }
  throw new ResponseShapeError(`the service's ${tool} answered without the file's content`);
}

export const agentTools = {
  /** Every peer link of the agents the key reaches, or of one agent (`agent_id`). */
  async links(client: ApiClient, args: Record<string, unknown>, options: ToolOptions = {}): Promise<PeerLink[]> {
    const data = await call(client, 'gobii_list_agent_links', args, options, (d) => list(d.links, isLink));
    return data.links as PeerLink[];
  },

  /** Creates the link between two agents, or enables it again with this budget. Sent once. */
  async link(client: ApiClient, args: Record<string, unknown>, options: ToolOptions = {}): Promise<{ link: PeerLink; created: boolean }> {
    const data = await call(client, 'gobii_link_agents', args, options, (d) => isObject(d.link) && isLink(d.link) && typeof d.created === 'boolean');
    return data as { link: PeerLink; created: boolean };
  },

  /** Removes a link (its messages stay). Sent once. */
  async unlink(client: ApiClient, args: Record<string, unknown>, options: ToolOptions = {}): Promise<{ status: string; link: PeerLink }> {
    const data = await call(client, 'gobii_unlink_agents', args, options, (d) => string(d.status) && isObject(d.link) && isLink(d.link));
    return data as { status: string; link: PeerLink };
  },

  /** The files and folders of the agent's default filespace. */
  async files(client: ApiClient, agentId: string, options: ToolOptions = {}): Promise<FileListing> {
    const ok = (d: Record<string, unknown>) => isObject(d.filespace) && string(d.filespace.id) && list(d.nodes, isNode);
    return (await call(client, 'gobii_list_agent_files', { agent_id: agentId }, options, ok)) as FileListing;
  },

  /** Stores a file in the agent's filespace. Sent once. */
  async upload(client: ApiClient, args: Record<string, unknown>, options: ToolOptions = {}): Promise<UploadedFile> {
    const ok = (d: Record<string, unknown>) => d.status === 'ok' && string(d.path) && string(d.node_id) && string(d.filename);
    return (await call(client, 'gobii_upload_agent_file', args, options, ok)) as UploadedFile;
  },

  /** Reads a gobii:// resource: its description and bytes (unchecked here: see core/agent-files.ts provenFile). */
  async read(client: ApiClient, uri: string, options: ToolOptions = {}): Promise<ResourceRead> {
    const tool = 'gobii_read_agent_resource';
    const { data, content } = await callServiceToolContent(client, tool, { uri }, options).catch((error: unknown) => {
      // The service says the same for a file that is not there and one it will not serve (over its limit, unreadable).
      if (error instanceof ServiceToolError && error.problem.startsWith('Resource not found')) throw new MissingFileError(`the service has no file ${uri} for this key: ${error.problem}`);
      return missing(client, tool)(error);
    });
    const resource = isObject(data.resource) ? data.resource : undefined;
    const ok = resource && string(resource.uri) && string(resource.name) && string(resource.mime_type) && Number.isSafeInteger(resource.size_bytes) && string(resource.checksum_sha256);
    if (!ok) throw new ResponseShapeError(`the service's ${tool} answered in a shape agentctl does not know`);
    return { resource: resource as ResourceRead['resource'], content: contentBytes(tool, content) };
  },

  /** The configuration fields, tiers, credit limits and policies the key may set, with one agent's current values. */
  async configOptions(client: ApiClient, args: Record<string, unknown>, options: ToolOptions = {}): Promise<Record<string, unknown>> {
    return call(client, 'gobii_get_agent_config_options', args, options, (d) => isObject(d.owner) && isObject(d.fields));
  },

  /** A bounded, sanitised debug trace of one agent. */
  async trace(client: ApiClient, args: Record<string, unknown>, options: ToolOptions = {}): Promise<Record<string, unknown>> {
    const data = await call(client, 'gobii_get_agent_debug_trace', args, options, (d) => isObject(d.agent) && isObject(d.scope));
    // The service redacts what looks like a secret; the key this client sends is taken out as well.
    return client.redactValue(data) as Record<string, unknown>;
  },
};
