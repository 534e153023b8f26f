import definitions from './definitions.json' with { type: 'json' };

// The service's remote MCP server as data: its protocol revision, serverInfo and the 16 tools'
// definitions (names, titles, descriptions, input and output schemas, annotations), taken from
// gobii-platform's api/services/remote_mcp.py (see README.md beside this file for how).

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[]; additionalProperties: false };
  outputSchema: Record<string, unknown>;
  annotations?: Record<string, boolean>;
}

export const MCP_PROTOCOL_VERSION: string = definitions.protocolVersion;
export const SERVER_INFO: Record<string, unknown> = definitions.serverInfo;
export const TOOL_DEFINITIONS = definitions.tools as unknown as readonly ToolDefinition[];
export const TOOL_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOL_DEFINITIONS.map((tool) => [tool.name, tool]));

/** tools/list's answer: a fresh copy each time (list_tools' deepcopy), so no caller can change the table. */
export const listTools = (): ToolDefinition[] => structuredClone(TOOL_DEFINITIONS) as ToolDefinition[];

/** resources/templates/list (remote_mcp.py list_resource_templates). */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'gobii://agents/{agent_id}/files/{node_id}',
    name: 'gobii-agent-file',
    title: 'Gobii agent file',
    description: "An authenticated file in a Gobii agent's filespace.",
  },
  {
    uriTemplate: 'gobii://agents/{agent_id}/attachments/{attachment_id}',
    name: 'gobii-message-attachment',
    title: 'Gobii message attachment',
    description: 'An authenticated attachment from a Gobii agent timeline message.',
  },
];
