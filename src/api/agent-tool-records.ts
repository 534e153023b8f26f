// The records the service's MCP tools answer for links and files (remote_mcp._serialize_*), as
// plain interfaces that import nothing: the API layer checks answers against them
// (agent-tools.ts), and the library declares them to its users as they are (src/client/surface-tools.ts),
// whose declarations must reach no zod.

export interface AgentRef {
  id: string;
  name: string;
  is_active?: boolean;
  life_state?: string;
  [key: string]: unknown;
}

/** A peer link between two agents (remote_mcp._serialize_peer_link). */
export interface PeerLink {
  id: string;
  agent_a: AgentRef;
  agent_b: AgentRef;
  is_enabled: boolean;
  messages_per_window?: number;
  window_hours?: number;
  health?: { status: string; issues: Array<{ agent_id: string; reason: string }> };
  created_at?: string | null;
  [key: string]: unknown;
}

/** A file or folder of an agent's filespace (remote_mcp._serialize_file_node). */
export interface FileNode {
  id: string;
  parent_id?: string | null;
  name: string;
  path: string;
  node_type: string;
  size_bytes?: number | null;
  mime_type?: string | null;
  checksum_sha256?: string | null;
  resource_uri?: string | null;
  updated_at?: string | null;
  [key: string]: unknown;
}

export interface FileListing {
  filespace: { id: string; name: string };
  nodes: FileNode[];
  [key: string]: unknown;
}

export interface UploadedFile {
  status: string;
  path: string;
  node_id: string;
  filename: string;
  resource_uri: string;
  mime_type?: string | null;
  size_bytes?: number | null;
  checksum_sha256?: string | null;
  [key: string]: unknown;
}

/** A file read: its bytes, proven against the size and SHA-256 the service declared (src/core/agent-files.ts). */
export interface AgentFileContent {
  uri: string;
  /** The service's name for it (its text: shown, never used as a path unchecked). */
  name: string;
  mime_type: string;
  size_bytes: number;
  checksum_sha256: string;
  content: Uint8Array;
}
