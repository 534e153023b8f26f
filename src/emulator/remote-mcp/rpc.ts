import { listTools, MCP_PROTOCOL_VERSION, RESOURCE_TEMPLATES, SERVER_INFO } from './definitions.js';
import type { McpServices } from './context.js';
import { readResource, ResourceError } from './resources.js';
import { callTool } from './tools.js';
import { toolResult } from './tool-result.js';
import { ToolError } from './args.js';

// The JSON-RPC methods of the remote MCP endpoint (api/mcp_views.py _handle_json_rpc_request): each
// answer is HTTP 200 but for a request that is not JSON-RPC 2.0 (400); a tool's failure is a result
// with isError, not a JSON-RPC error.

export type RpcPayload = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };

const INSTRUCTIONS = 'Use Gobii tools to create, manage, link, message, and attach files to persistent Gobii agents. Authenticate every request with your Gobii API key.';

export async function handleRpc(services: McpServices, payload: RpcPayload, url: URL): Promise<{ body: unknown; status: number }> {
  const id = payload.id ?? null;
  const ok = (result: unknown) => ({ body: { jsonrpc: '2.0', id, result }, status: 200 });
  const fail = (code: number, message: string, status = 200) => ({ body: { jsonrpc: '2.0', id, error: { code, message } }, status });
  if (payload.jsonrpc !== '2.0' || !('method' in payload)) return fail(-32600, 'Invalid JSON-RPC request.', 400);
  const { method } = payload;
  // `payload.get("params") or {}`: a falsy params (null, 0, "", []) counts as none.
  const params = isFalsy(payload.params) ? {} : payload.params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return fail(-32602, 'params must be an object.');
  const given = params as Record<string, unknown>;
  switch (method) {
    case 'initialize':
      return ok({
        protocolVersion: MCP_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } },
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      });
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({ tools: listTools() });
    case 'resources/list':
      // Agent files are many and depend on who asks: the tools hand out links instead (list_resources).
      return ok({ resources: [] });
    case 'resources/templates/list':
      return ok({ resourceTemplates: RESOURCE_TEMPLATES });
    case 'resources/read': {
      const uri = given.uri;
      if (typeof uri !== 'string' || uri === '') return fail(-32602, 'resources/read requires params.uri.');
      try {
        return ok(readResource(services, uri));
      } catch (error) {
        if (error instanceof ResourceError) return fail(-32002, 'Resource not found or inaccessible.');
        throw error;
      }
    }
    case 'tools/call': {
      const name = given.name;
      if (typeof name !== 'string' || name === '') return fail(-32602, 'tools/call requires params.name.');
      const args = isFalsy(given.arguments) ? {} : given.arguments;
      try {
        return ok(toolResult(await callTool(services, name, args, url)));
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        const details = error.data === undefined || error.data === null ? {} : { details: error.data };
        return ok(toolResult({ status: 'error', message: error.message, ...details }, true));
      }
    }
    default:
      return fail(-32601, `Method not found: ${pythonStr(method)}`);
  }
}

/** Python's falsiness for JSON values. */
function isFalsy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** f"{method}" of a JSON value: Python's str() (None, True, a list's repr as near as JSON gets). */
function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return JSON.stringify(value);
}
