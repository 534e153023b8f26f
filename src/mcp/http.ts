// Streamable HTTP for `agentctl mcp --http PORT`: loopback only (127.0.0.1 and [::1]), every request
// carrying the bearer token, no page of a browser let in (Host and Origin checked), sessions that end
// when idle and never more than a cap. One MCP server per session (the transport keeps the session's
// id), so a client's progress and cancellation reach the call they are about.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { TOKEN_VARIABLE } from './options.js';
import { createServer, type ServerDeps, type ServerOptions } from './server.js';

export const HOST = '127.0.0.1';
const HOST_V6 = '::1';
/** A session no request has used for this long is closed (its client must initialize again). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Sessions kept at most; a new one beyond closes the one idle longest. */
export const DEFAULT_MAX_SESSIONS = 64;

export interface HttpOptions {
  port: number;
  token: string;
  idleMs?: number;
  maxSessions?: number;
  /** The time sessions are aged by (Date.now without). */
  now?: () => number;
}

export interface RunningHttp {
  url: string;
  /** The sessions open now. */
  sessions: () => number;
  close: () => Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/** Starts listening; the error of a port that cannot be listened on is the system's (the command words it). */
export async function startHttp(deps: ServerDeps, options: ServerOptions, http: HttpOptions): Promise<RunningHttp> {
  const expected = Buffer.from(`Bearer ${http.token}`);
  const idleMs = http.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = http.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const now = http.now ?? Date.now;
  const sessions = new Map<string, Session>();
  let port = http.port;
  const origins = () => new Set([`http://${HOST}:${port}`, `http://localhost:${port}`, `http://[${HOST_V6}]:${port}`]);

  const authorised = (request: IncomingMessage) => {
    const header = Buffer.from(request.headers.authorization ?? '');
    return header.length === expected.length && timingSafeEqual(header, expected);
  };

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    void session?.transport.close().catch(() => undefined);
  };

  const open = async (): Promise<StreamableHTTPServerTransport> => {
    if (sessions.size >= maxSessions) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      if (oldest) closeSession(oldest[0]);
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (session) => void sessions.set(session, { transport: created, lastUsed: now() }),
      // Loopback only, and no page in a browser may reach it through a rebound name.
      enableDnsRebindingProtection: true,
      allowedHosts: [`${HOST}:${port}`, `localhost:${port}`, `[${HOST_V6}]:${port}`],
    });
    created.onclose = () => {
      if (created.sessionId) sessions.delete(created.sessionId);
    };
    await createServer(deps, options).connect(created);
    return created;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (new URL(request.url ?? '/', `http://${HOST}`).pathname !== '/mcp') return reply(response, 404, 'not found: the MCP endpoint is /mcp');
    // A page in a browser sends its Origin: none of another site may reach the server (the spec requires the check).
    const origin = request.headers.origin;
    if (origin !== undefined && !origins().has(origin)) return reply(response, 403, `forbidden: requests from ${origin} are refused (loopback clients only)`);
    if (!authorised(request)) {
      response.setHeader('www-authenticate', 'Bearer realm="agentctl mcp"');
      return reply(response, 401, `missing or wrong bearer token (Authorization: Bearer <${TOKEN_VARIABLE}>)`);
    }
    const id = request.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!session && id !== undefined) return reply(response, 404, 'unknown or expired session: initialize again');
    if (session) session.lastUsed = now();
    await (session?.transport ?? (await open())).handleRequest(request, response);
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, 'internal error');
      else response.end();
    });
  };
  const v4 = createHttpServer(listener);
  await listen(v4, port, HOST);
  port = (v4.address() as AddressInfo).port;
  // [::1] too, on the same port, where the machine has IPv6 (a client may resolve localhost to it).
  const v6 = createHttpServer(listener);
  const hasV6 = await listen(v6, port, HOST_V6).then(
    () => true,
    () => false,
  );
  const sweep = setInterval(() => {
    const time = now();
    for (const [id, session] of sessions) if (time - session.lastUsed > idleMs) closeSession(id);
  }, Math.max(10, Math.min(idleMs / 4, 60_000)));
  sweep.unref();

  return {
    url: `http://${HOST}:${port}/mcp`,
    sessions: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map(({ transport }) => transport.close()));
      for (const server of hasV6 ? [v4, v6] : [v4]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

function listen(server: HttpServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
