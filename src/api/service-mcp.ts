// A small JSON-RPC 2.0 client for the service's own MCP endpoint, POST /api/v1/mcp/ (gobii-platform
// api/mcp_views.py GobiiMCPView, tools in api/services/remote_mcp.py). Not an MCP session: each call is
// one stateless `tools/call`, which the view answers without an `initialize` first. It rides on the
// ApiClient (the key header, the base URL's origin, timeouts, bounded bodies, redaction), and adds
// what the endpoint needs: the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers, a JSON-RPC id
// per call, and its two kinds of failure (a JSON-RPC `error`, a tool result with `isError`) as errors.
//
// Retries: only a tool that changes nothing is sent again after a transient failure (READ_ONLY_TOOLS,
// our own list: the service's annotations are its text, not ours to trust). A send is sent once; a
// failure whose outcome is unknown says so, and the caller reads the timeline before sending again.
import type { ApiClient, RequestOptions } from './client.js';
import { ApiError, ResponseShapeError } from './errors.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import { oneLine } from '../contract/text.js';

/** Where the endpoint is, which protocol revision it speaks, and the first service version that has it. */
export const SERVICE_MCP = {
  path: '/mcp/',
  /** remote_mcp.MCP_PROTOCOL_VERSION (2.20.0 through 2.31.0). */
  protocolVersion: '2025-11-25',
  /** The endpoint and its send, timeline and wait tools came in gobii-platform 2.20.0 ("Add remote MCP server endpoint", #1000). */
  since: '2.20.0',
} as const;

/** The service's tools that read only (remote_mcp.TOOL_DEFINITIONS with readOnlyHint, and the plain reads). */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'gobii_list_agents',
  'gobii_get_agent',
  'gobii_get_agent_config_options',
  'gobii_list_agent_links',
  'gobii_get_agent_timeline',
  'gobii_get_agent_debug_trace',
  'gobii_wait_for_agent_event',
  'gobii_read_agent_resource',
  'gobii_list_agent_files',
]);

/** Longest tool error message kept (the service's text, shown to a person or a model). */
const MESSAGE_CHARS = 500;

/** The deployment has no /api/v1/mcp/ (an older service, or one that turned it off): answered 404. */
export class ServiceMcpMissingError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.serviceError;
  constructor(
    readonly baseUrl: string,
    readonly hint?: string,
  ) {
    super(`the service at ${baseUrl} has no MCP endpoint (POST ${SERVICE_MCP.path} answered 404): gobii-platform ${SERVICE_MCP.since} or later has it`);
    this.name = 'ServiceMcpMissingError';
  }
}

/** A JSON-RPC error object in the answer (a bad request, an unknown method). */
export class ServiceRpcError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.serviceError;
  constructor(
    readonly tool: string,
    readonly code: number,
    message: string,
  ) {
    super(`the service's ${tool} failed: JSON-RPC error ${code}: ${message}`);
    this.name = 'ServiceRpcError';
  }
}

/** A tool result with `isError: true`: the tool refused (agent not found, paused, a bad argument). */
export class ServiceToolError extends Error {
  readonly exitCode: ExitCodeValue;
  constructor(
    readonly tool: string,
    /** The service's message, redacted and on one line. */
    readonly problem: string,
    /** `details.code` when the service gave one (`agent_inactive`, `agent_not_found_or_inaccessible`). */
    readonly code: string | undefined,
    readonly details: unknown,
    readonly hint?: string,
  ) {
    super(`the service's ${tool} refused: ${problem}`);
    this.name = 'ServiceToolError';
    // agent_not_found_or_inaccessible, peer_link_not_found_or_inaccessible: a record that is not there.
    this.exitCode = code?.endsWith('_not_found_or_inaccessible') ? ExitCode.notFound : ExitCode.serviceError;
  }
}

export type ToolOptions = Pick<RequestOptions<never>, 'signal' | 'timeoutMs'>;

let nextId = 1;

/**
 * Calls one tool of the service's endpoint and answers its structured result (an object). A read-only
 * tool is retried as a GET would be; any other is sent exactly once.
 */
export async function callServiceTool(client: ApiClient, tool: string, args: Record<string, unknown>, options: ToolOptions = {}): Promise<Record<string, unknown>> {
  return (await callServiceToolContent(client, tool, args, options)).data;
}

/**
 * The same call, answering the result's content items as well (a read of a file carries its bytes
 * there, beside the structured description).
 */
export async function callServiceToolContent(client: ApiClient, tool: string, args: Record<string, unknown>, options: ToolOptions = {}): Promise<{ data: Record<string, unknown>; content: unknown[] }> {
  const id = nextId++;
  const readOnly = READ_ONLY_TOOLS.has(tool);
  const answer = await client
    .post<unknown>(SERVICE_MCP.path, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } }, {
      ...options,
      readOnly,
      ...(readOnly ? {} : { retries: 0 }),
      headers: { 'mcp-protocol-version': SERVICE_MCP.protocolVersion, 'mcp-method': 'tools/call', 'mcp-name': tool },
    })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) throw new ServiceMcpMissingError(client.baseUrl);
      throw error;
    });
  const data = toolResult(client, tool, id, answer);
  const content = isObject(answer) && isObject(answer.result) && Array.isArray(answer.result.content) ? (answer.result.content as unknown[]) : [];
  return { data, content };
}

function toolResult(client: ApiClient, tool: string, id: number, answer: unknown): Record<string, unknown> {
  if (!isObject(answer) || answer.jsonrpc !== '2.0' || answer.id !== id) throw new ResponseShapeError(`the service's ${tool} answered something that is not this call's JSON-RPC answer`);
  if (isObject(answer.error)) {
    const { code, message } = answer.error;
    throw new ServiceRpcError(tool, typeof code === 'number' ? code : 0, said(client, message));
  }
  const result = answer.result;
  if (!isObject(result)) throw new ResponseShapeError(`the service's ${tool} answered without a result`);
  const data = structured(result);
  if (result.isError === true) {
    const details = isObject(data) ? data.details : undefined;
    const code = isObject(details) && typeof details.code === 'string' ? details.code : undefined;
    throw new ServiceToolError(tool, said(client, isObject(data) ? data.message : undefined), code, client.redactValue(details));
  }
  if (!isObject(data)) throw new ResponseShapeError(`the service's ${tool} answered without a structured result`);
  return data;
}

/** structuredContent, or (a server that leaves it out) the JSON text of its first content item. */
function structured(result: Record<string, unknown>): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const first = Array.isArray(result.content) ? (result.content[0] as unknown) : undefined;
  if (!isObject(first) || typeof first.text !== 'string') return undefined;
  try {
    return JSON.parse(first.text) as unknown;
  } catch {
    return undefined;
  }
}

/** The service's words, fit to quote: no key, one line, bounded. */
function said(client: ApiClient, text: unknown): string {
  const line = oneLine(client.redact(typeof text === 'string' && text !== '' ? text : 'no reason given'));
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS)}…` : line;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The three tools a conversation needs, typed by what agentctl reads of their answers (the rest of
// each answer is kept as the service sent it).

/** A timeline event as the service's tools give it (console/agent_chat/timeline.py): `kind` and `cursor` at least. */
export interface ServiceEvent {
  kind: string;
  cursor?: string | null;
  [key: string]: unknown;
}

/** gobii_send_agent_message's answer: the message's id and its timeline cursor (to read what comes after it). */
export interface ServiceSent {
  status: string;
  message_id: string;
  agent_id: string;
  cursor: string | null;
  latest_cursor: string | null;
  timeline_event?: ServiceEvent;
  [key: string]: unknown;
}

/** gobii_get_agent_timeline's answer. */
export interface ServiceTimeline {
  events: ServiceEvent[];
  latest_cursor: string | null;
  has_more: boolean;
  oldest_cursor?: string | null;
  newest_cursor?: string | null;
  [key: string]: unknown;
}

/** gobii_wait_for_agent_event's answer: the matching events after the cursor, and where to go on from. */
export interface ServiceWait {
  matched: boolean;
  timed_out: boolean;
  events: ServiceEvent[];
  next_cursor: string | null;
  latest_cursor?: string | null;
  waited_seconds: number | string;
  [key: string]: unknown;
}

/** The longest wait the service holds one call open (remote_mcp.WAIT_MAX_TIMEOUT_SECONDS). */
export const WAIT_MAX_SECONDS = 30;
/** The actor types the wait's `from_actor_type` filter knows (remote_mcp._normalize_wait_filters). */
export const WAIT_ACTOR_TYPES = ['agent', 'human_user', 'external', 'system'] as const;
/** The event kinds the wait matches (remote_mcp.WAIT_EVENT_TYPES). */
export const WAIT_EVENT_TYPES = ['message', 'steps', 'thinking', 'plan'] as const;

export interface WaitQuery {
  agent_id: string;
  after_cursor?: string | null;
  /** 0..WAIT_MAX_SECONDS. */
  timeout_seconds: number;
  limit?: number;
  event_types?: (typeof WAIT_EVENT_TYPES)[number][];
  filters?: { from_actor_type?: (typeof WAIT_ACTOR_TYPES)[number]; channel?: string; message_id?: string; from_agent_id?: string; to_agent_id?: string };
}

const nullableString = (value: unknown): value is string | null | undefined => value === undefined || value === null || typeof value === 'string';
const events = (value: unknown): value is ServiceEvent[] => Array.isArray(value) && value.every((event) => isObject(event) && typeof event.kind === 'string' && nullableString(event.cursor));

function checked<T>(tool: string, data: Record<string, unknown>, ok: boolean): T {
  if (!ok) throw new ResponseShapeError(`the service's ${tool} answered in a shape agentctl does not know`);
  return data as T;
}

export const serviceMcp = {
  /** Sends one message as the key's user, on the web channel, and queues the agent to process it. Never retried. */
  async sendMessage(client: ApiClient, args: { agent_id: string; body: string }, options: ToolOptions = {}): Promise<ServiceSent> {
    const data = await callServiceTool(client, 'gobii_send_agent_message', args, options);
    return checked('gobii_send_agent_message', data, typeof data.message_id === 'string' && nullableString(data.cursor) && nullableString(data.latest_cursor));
  },

  /** A window of the timeline; with `after_cursor`, the events strictly after it, oldest first. */
  async timeline(client: ApiClient, args: { agent_id: string; after_cursor?: string | null; cursor?: string | null; direction?: 'initial' | 'older' | 'newer'; limit?: number }, options: ToolOptions = {}): Promise<ServiceTimeline> {
    const data = await callServiceTool(client, 'gobii_get_agent_timeline', args, options);
    return checked('gobii_get_agent_timeline', data, events(data.events) && nullableString(data.latest_cursor));
  },

  /**
   * One bounded long-poll: the service holds the call up to `timeout_seconds`, so this request's own
   * time limit is that plus the client's usual one.
   */
  async waitForEvent(client: ApiClient, query: WaitQuery, options: ToolOptions = {}): Promise<ServiceWait> {
    const timeoutMs = query.timeout_seconds * 1000 + (options.timeoutMs ?? client.timeoutMs);
    const data = await callServiceTool(client, 'gobii_wait_for_agent_event', { ...query }, { ...options, timeoutMs });
    return checked('gobii_wait_for_agent_event', data, events(data.events) && typeof data.matched === 'boolean' && nullableString(data.next_cursor));
  },
};
