// `agentctl mcp --http PORT`: Streamable HTTP on loopback only, every request carrying the bearer
// token. One MCP server per session (the transport keeps the session's id), so a client's progress
// and cancellation reach the call they are about.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context } from '../cli/context.js';
import { ExitCode } from '../errors.js';
import { listenError } from '../commands/common/listen.js';
import { TOKEN_VARIABLE } from './options.js';
import { createServer, type ServerDeps, type ServerOptions } from './server.js';

const HOST = '127.0.0.1';

export async function serveHttp(ctx: Context, deps: ServerDeps, options: ServerOptions, port: number): Promise<number | void> {
  const given = ctx.env[TOKEN_VARIABLE]?.trim();
  const token = given || randomBytes(24).toString('base64url');
  ctx.redactor.add(token);
  const expected = Buffer.from(`Bearer ${token}`);
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const authorised = (request: IncomingMessage) => {
    const header = Buffer.from(request.headers.authorization ?? '');
    return header.length === expected.length && timingSafeEqual(header, expected);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (new URL(request.url ?? '/', `http://${HOST}`).pathname !== '/mcp') return reply(response, 404, 'not found: the MCP endpoint is /mcp');
    if (!authorised(request)) return reply(response, 401, `missing or wrong bearer token (Authorization: Bearer <${TOKEN_VARIABLE}>)`);
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      if (id !== undefined) return reply(response, 404, 'unknown session: initialize again');
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session) => void sessions.set(session, created),
        // Loopback only, and no page in a browser may reach it through a rebound name.
        enableDnsRebindingProtection: true,
        allowedHosts: [`${HOST}:${address().port}`, `localhost:${address().port}`],
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await createServer(deps, options).connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  };

  const http = createHttpServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, 'internal error');
      else response.end();
    });
  });
  const address = () => http.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, HOST, () => resolve());
  }).catch((error: unknown) => {
    throw listenError(error, HOST, port);
  });
  const url = `http://${HOST}:${address().port}/mcp`;
  ctx.out.line(url);
  ctx.out.info(`agentctl mcp: Streamable HTTP at ${url} (loopback only). Ctrl-C stops it.`);
  // Not silenced by --quiet: without it no client can connect.
  ctx.io.stderr.write(given ? `Bearer token: the one in ${TOKEN_VARIABLE}\n` : `Bearer token (set ${TOKEN_VARIABLE} to choose one): ${token}\n`);

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.all([...sessions.values()].map((transport) => transport.close()));
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
  return ctx.signal.reason === 'SIGTERM' ? undefined : ExitCode.interrupted;
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
