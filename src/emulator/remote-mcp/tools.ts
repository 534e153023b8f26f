import { TOOL_BY_NAME } from './definitions.js';
import type { McpServices } from './context.js';
import { ToolError, type Args } from './args.js';
import { AGENT_TOOLS } from './agents.js';
import { LINK_TOOLS } from './links.js';
import { MESSAGE_TOOLS } from './messages.js';
import { FILE_TOOLS } from './files.js';
import { TRACE_TOOLS } from './debug-trace.js';
import type { ToolHandler, ToolOutput } from './tool-result.js';

// tools/call (remote_mcp.py call_tool): the arguments checked against the tool's properties
// (_reject_unknown_arguments), then its handler.

const HANDLERS: Record<string, ToolHandler> = { ...AGENT_TOOLS, ...LINK_TOOLS, ...MESSAGE_TOOLS, ...FILE_TOOLS, ...TRACE_TOOLS };

export async function callTool(services: McpServices, name: string, args: unknown, url: URL): Promise<ToolOutput> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new ToolError('Tool arguments must be an object.');
  const tool = TOOL_BY_NAME.get(name);
  const handler = HANDLERS[name];
  if (!tool || !handler) throw new ToolError(`Unknown tool: ${name}`);
  // _reject_unknown_arguments: only the names of the tool's inputSchema (sorted as Python sorts them).
  const supported = Object.keys(tool.inputSchema.properties);
  const unknown = Object.keys(args).filter((key) => !supported.includes(key));
  if (unknown.length > 0) throw new ToolError('Unsupported tool argument(s).', { unsupported_fields: unknown.sort(), supported_fields: [...supported].sort() });
  return handler(services, args as Args, url);
}
