// What `agentctl mcp --http` answers a request it refuses, worded so that every client shows why.
// The server takes a fixed bearer token, not OAuth. An MCP client that can do OAuth (mcp-remote, the
// Inspector's web page, the SDK's Client given an auth provider) takes any 401 for "log in": it looks for
// OAuth metadata under /.well-known/, falls back to /register, /authorize and /token on the same
// origin, and reports the OAuth error it ends with (or opens a browser), never the token. So a
// token that was sent but is wrong is a 403 (RFC 9110: the credentials given do not grant access),
// which such clients report as it is; a missing token stays a 401 (its challenge names no OAuth
// metadata), and every OAuth address answers at once with an OAuth error naming the token, which
// is what the client ends with and shows.
import type { ServerResponse } from 'node:http';
import { TOKEN_VARIABLE } from './options.js';

/** What to send, worded without "Unauthorized" or "Not Found": mcp-remote starts OAuth, or tries another transport, on those words. */
const SEND_TOKEN = `send Authorization: Bearer <token> with the token in ${TOKEN_VARIABLE} or the one agentctl mcp printed at start`;
const NO_OAUTH = 'this server does not use OAuth';

/** A JSON-RPC error as the SDK's transport answers one (no request id could be read). */
export function reply(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** A request without the right token: 401 when it sent none, 403 when the one it sent is wrong. */
export function tokenRefusal(response: ServerResponse, sentOne: boolean): void {
  if (sentOne) return reply(response, 403, `wrong bearer token: ${SEND_TOKEN} (${NO_OAUTH})`);
  // A 401 carries a challenge (RFC 9110); this one names no resource metadata, so no OAuth server either.
  response.setHeader('www-authenticate', 'Bearer realm="agentctl mcp"');
  reply(response, 401, `missing bearer token: ${SEND_TOKEN} (${NO_OAUTH})`);
}

/** Where an OAuth client looks for metadata (RFC 8414, RFC 9728, OpenID discovery) and registers, authorizes and asks for tokens. */
export function isOAuthPath(path: string): boolean {
  return path.includes('/.well-known/') || path === '/register' || path === '/authorize' || path === '/token';
}

/** An OAuth error (RFC 6749's shape, which OAuth clients read and show) that says which token to send. */
export function refuseOAuth(response: ServerResponse): void {
  response
    .writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ error: 'access_denied', error_description: `${NO_OAUTH}: ${SEND_TOKEN}` }));
}
