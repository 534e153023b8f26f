// The part of `client.persistent` that goes through the service's MCP endpoint (gobii-platform
// 2.20.0 or later; the trace 2.21.0, reading a file 2.31.0): peer links, an agent's files, its config
// options and its debug trace. Plain interfaces, as in surface.ts and types.ts.

/** Per call, as surface.ts's CallOptions (written again here: surface.ts imports this file). */
interface CallOptions {
  signal?: AbortSignal;
}

/** An agent as a link names it. */
export interface LinkedAgent {
  id: string;
  name: string;
  is_active?: boolean;
  life_state?: string;
  [field: string]: unknown;
}

/** A peer link: two agents that may message each other, within a budget of messages per window. */
export interface PeerLink {
  id: string;
  agent_a: LinkedAgent;
  agent_b: LinkedAgent;
  is_enabled: boolean;
  messages_per_window?: number;
  window_hours?: number;
  health?: { status: string; issues: Array<{ agent_id: string; reason: string }> };
  [field: string]: unknown;
}

/** A file or folder of an agent's filespace. Its `name` and `path` are the service's text: never a local path as they are. */
export interface AgentFileNode {
  id: string;
  name: string;
  path: string;
  node_type: string;
  size_bytes?: number | null;
  mime_type?: string | null;
  checksum_sha256?: string | null;
  resource_uri?: string | null;
  [field: string]: unknown;
}

export interface AgentFileListing {
  filespace: { id: string; name: string };
  nodes: AgentFileNode[];
  [field: string]: unknown;
}

export interface UploadedAgentFile {
  status: string;
  path: string;
  node_id: string;
  filename: string;
  resource_uri: string;
  size_bytes?: number | null;
  checksum_sha256?: string | null;
  [field: string]: unknown;
}

/** A file read: its bytes, proven against the size and SHA-256 the service declared. */
export interface AgentFileContent {
  uri: string;
  /** The service's name for it (its text: do not use it as a path unchecked). */
  name: string;
  mime_type: string;
  size_bytes: number;
  checksum_sha256: string;
  content: Uint8Array;
}

export interface LinkOptions extends CallOptions {
  /** 1..500 (service default 30). */
  messagesPerWindow?: number;
  /** 1..168 (service default 6). */
  windowHours?: number;
}

export interface UploadFileInput {
  /** At most 10 MiB (the service's default limit): a larger one is refused before any request. */
  content: Uint8Array | string;
  /** Where in the filespace, e.g. /uploads/report.pdf. */
  path: string;
  /** Default: from the path's extension, else application/octet-stream. */
  mimeType?: string;
  /** Replace a file already at that path (without, the service stores it under a new name beside it). */
  overwrite?: boolean;
}

export interface TraceOptions extends CallOptions {
  /** Items per section, 1..50 (service default 20). */
  limit?: number;
  cursor?: string;
  /** Minutes back, 1..10080 (service default 60); null: no time window. Not with `since`. */
  recentMinutes?: number | null;
  since?: string;
  until?: string;
  include?: Array<'timeline' | 'audit_events' | 'completions' | 'eval_debug_artifacts' | 'diagnostics'>;
  detail?: 'summary' | 'standard' | 'verbose';
  evalRunId?: string;
}

export interface AgentToolsApi {
  /** Every peer link of the agents the key reaches, or of agent `id`. */
  links(id?: string, options?: CallOptions): Promise<PeerLink[]>;
  /** Links two agents (or enables their link again, with this budget). Sent once. */
  link(id: string, peerId: string, options?: LinkOptions): Promise<{ link: PeerLink; created: boolean }>;
  /** Removes the link between two agents, or the link `linkId`; past messages stay. Sent once. */
  unlink(target: { id: string; peerId: string } | { linkId: string }, options?: CallOptions): Promise<{ status: string; link: PeerLink }>;
  files(id: string, options?: CallOptions): Promise<AgentFileListing>;
  /** Stores a file in the agent's filespace. Sent once. */
  uploadFile(id: string, input: UploadFileInput, options?: CallOptions): Promise<UploadedAgentFile>;
  /** Reads a file by its filespace path (`/uploads/a.pdf`), its id or its gobii:// URI (at most 10 MiB). */
  readFile(id: string, file: string, options?: CallOptions): Promise<AgentFileContent>;
  /** What the key may set on an agent (tiers, credit limits, schedules, policies), with agent `id`'s current values. */
  configOptions(id?: string, options?: CallOptions): Promise<Record<string, unknown>>;
  /** The agent's sanitised debug trace. */
  trace(id: string, options?: TraceOptions): Promise<Record<string, unknown>>;
}
