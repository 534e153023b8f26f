// The part of `client.persistent` that goes through the service's MCP endpoint (gobii-platform
// 2.20.0 or later; the trace 2.21.0, reading a file 2.31.0): peer links, an agent's files, its config
// options and its debug trace. Plain interfaces, as in surface.ts and types.ts.
import type {
  AgentFileContent,
  AgentRef as LinkedAgent,
  FileListing as AgentFileListing,
  FileNode as AgentFileNode,
  PeerLink,
  UploadedFile as UploadedAgentFile,
} from '../api/agent-tool-records.js';

/** Per call, as surface.ts's CallOptions (written again here: surface.ts imports this file). */
interface CallOptions {
  signal?: AbortSignal;
}

/** Peer links and an agent's files (and a file read), as the service answers them: one declaration, the API layer's. */
export type { AgentFileContent, AgentFileListing, AgentFileNode, LinkedAgent, PeerLink, UploadedAgentFile };

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
