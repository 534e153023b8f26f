import type { ServerResponse } from 'node:http';
import type { ViewCall } from '../route-types.js';
import { handleRpc, type RpcPayload } from './rpc.js';
import type { McpServices } from './context.js';

// The HTTP face of the remote MCP endpoint, as api/mcp_views.py GobiiMCPView answers: JSON-RPC 2.0
// over plain POST (one object per request, no sessions, no event stream), GET a 405 and OPTIONS a
// 204 with CORS headers, every method behind the Origin check.

export const RPC_ERRORS = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, headerMismatch: -32001, resourceNotFound: -32002 } as const;

/** Whether the view's hosts check (_origin_is_allowed) lets the request's Origin through. */
export type OriginCheck = (origin: string | undefined, host: string | undefined) => boolean;

export function mcpView(services: McpServices, originAllowed: OriginCheck) {
  return async (call: ViewCall): Promise<void> => {
    const { req, res } = call;
    const origin = req.headers.origin;
    if (!originAllowed(origin, req.headers.host)) return rpcError(res, 403, RPC_ERRORS.invalidRequest, 'Origin is not allowed.', null);
    if (req.method === 'GET') {
      res.writeHead(405, { 'cache-control': 'no-store', 'content-type': 'text/html; charset=utf-8' });
      return void res.end();
    }
    if (req.method === 'OPTIONS') return preflight(res, origin);
    const payload = parsePayload(call.rawBody);
    if (payload === 'parse-error') return rpcError(res, 400, RPC_ERRORS.parse, 'Parse error.', null);
    if (payload === 'not-object') return rpcError(res, 400, RPC_ERRORS.invalidRequest, 'Request body must be a single JSON-RPC object.', null);
    // A notification or a response (a client answering the server) is accepted, with nothing to say.
    if (isNotificationOrResponse(payload)) {
      res.writeHead(202, { 'cache-control': 'no-store', 'content-type': 'text/html; charset=utf-8' });
      return void res.end();
    }
    const mismatch = headerMismatch(call, payload);
    if (mismatch) return rpcError(res, 400, RPC_ERRORS.headerMismatch, mismatch, payload.id ?? null);
    const { body, status } = await handleRpc(services, payload, call.url);
    sendRpc(res, status, body, true);
  };
}

function preflight(res: ServerResponse, origin: string | undefined): void {
  const headers: Record<string, string> = {
    'access-control-allow-headers': 'Authorization, Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, X-Api-Key',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-max-age': '600',
  };
  if (origin) {
    headers['access-control-allow-origin'] = origin;
    headers.vary = 'Origin, Accept';
  }
  res.writeHead(204, headers);
  res.end();
}

/** json.loads of the body (an empty body is `{}`): 'parse-error', 'not-object', or the object. */
function parsePayload(rawBody: string): RpcPayload | 'parse-error' | 'not-object' {
  let value: unknown;
  try {
    value = JSON.parse(rawBody === '' ? '{}' : rawBody);
  } catch {
    return 'parse-error';
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as RpcPayload) : 'not-object';
}

function isNotificationOrResponse(payload: RpcPayload): boolean {
  if (!('method' in payload)) return 'result' in payload || 'error' in payload;
  return !('id' in payload);
}

/** _validate_mcp_headers: Mcp-Method must name the body's method, and on tools/call Mcp-Name its tool. */
function headerMismatch(call: ViewCall, payload: RpcPayload): string | undefined {
  const method = payload.method;
  const headerMethod = header(call, 'mcp-method');
  if (headerMethod && headerMethod !== method) return `Mcp-Method header value does not match JSON-RPC method ${pythonRepr(method)}.`;
  if (method === 'tools/call') {
    const params = payload.params !== null && typeof payload.params === 'object' && !Array.isArray(payload.params) ? (payload.params as Record<string, unknown>) : {};
    const headerName = header(call, 'mcp-name');
    if (headerName && headerName !== params.name) return 'Mcp-Name header value does not match params.name.';
  }
  return undefined;
}

const header = (call: ViewCall, name: string) => {
  const value = call.req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** Python's repr() of the method as the message words it: a text in quotes, None, or the JSON value. */
function pythonRepr(value: unknown): string {
  if (value === undefined || value === null) return 'None';
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return JSON.stringify(value);
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, id: unknown): void {
  sendRpc(res, status, { jsonrpc: '2.0', id, error: { code, message } }, false);
}

/** A DRF Response: JSON, no-store, nosniff; an answer of the method handlers also varies on the key headers. */
function sendRpc(res: ServerResponse, status: number, body: unknown, handled: boolean): void {
  const text = JSON.stringify(body);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  if (handled) res.setHeader('vary', 'Authorization, X-Api-Key, Accept');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
