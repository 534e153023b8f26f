// Streamable HTTP for `agentctl mcp --http PORT`: loopback only (127.0.0.1 and [::1]), every request
// carrying the bearer token, no page of a browser let in (Host and Origin checked), sessions that end
// when idle and never more than a cap. One MCP server per session (the transport keeps the session's
// id), so a client's progress, cancellation and log messages reach the session they are about. A
// server exists only for a session: a request without a session id that is not an initialize is
// answered without one, and a session that ends (closed, evicted, idle, or an initialize that failed)
// closes its server, which lets go of everything it held.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BodyTooLarge, readBody } from '../emulator/http.js';
import { isOAuthPath, refuseOAuth, reply, tokenRefusal } from './http-refusals.js';
import { createServer, type ServerDeps, type ServerOptions } from './server.js';

export const HOST = '127.0.0.1';
const HOST_V6 = '::1';
/** A session no request has used for this long is closed (its client must initialize again). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Sessions kept at most; a new one beyond closes the one idle longest. */
export const DEFAULT_MAX_SESSIONS = 64;
/** The largest body read from a request without a session (an initialize is a few hundred bytes). */
const MAX_INITIALIZE_BYTES = 1024 * 1024;

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
  server: Server;
  lastUsed: number;
}

/** Starts listening; the error of a port that cannot be listened on is the system's (the command words it). */
export async function startHttp(deps: ServerDeps, options: ServerOptions, http: HttpOptions): Promise<RunningHttp> {
  const sessions = new Sessions(deps, options, http);
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    sessions.handle(request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, 'internal error');
      else response.end();
    });
  };
  const v4 = createHttpServer(listener);
  await listen(v4, http.port, HOST);
  const port = (sessions.port = (v4.address() as AddressInfo).port);
  // [::1] too, on the same port, where the machine has IPv6 (a client may resolve localhost to it).
  const v6 = createHttpServer(listener);
  const hasV6 = await listen(v6, port, HOST_V6).then(
    () => true,
    () => false,
  );
  const idleMs = http.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sweep = setInterval(() => sessions.closeIdle(idleMs), Math.max(10, Math.min(idleMs / 4, 60_000)));
  sweep.unref();

  return {
    url: `http://${HOST}:${port}/mcp`,
    sessions: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await sessions.closeAll();
      for (const server of hasV6 ? [v4, v6] : [v4]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** The open sessions by id, and how each request reaches one (or opens one, or is refused). */
class Sessions {
  /** The port listened on (set once listening: Host and Origin are checked against it). */
  port: number;
  private readonly open = new Map<string, Session>();
  private readonly expected: Buffer;
  private readonly now: () => number;

  constructor(
    private readonly deps: ServerDeps,
    private readonly options: ServerOptions,
    private readonly http: HttpOptions,
  ) {
    this.port = http.port;
    this.expected = Buffer.from(`Bearer ${http.token}`);
    this.now = http.now ?? Date.now;
  }

  get size(): number {
    return this.open.size;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', `http://${HOST}`).pathname;
    if (path !== '/mcp') return isOAuthPath(path) ? refuseOAuth(response) : reply(response, 404, 'not found: the MCP endpoint is /mcp');
    // A page in a browser sends its Origin: none of another site may reach the server (the spec requires the check).
    const origin = request.headers.origin;
    if (origin !== undefined && !this.origins().has(origin)) return reply(response, 403, `forbidden: requests from ${origin} are refused (loopback clients only)`);
    if (!this.authorised(request)) return tokenRefusal(response, request.headers.authorization !== undefined);
    const id = request.headers['mcp-session-id'];
    if (id === undefined) return this.initialize(request, response);
    const session = typeof id === 'string' ? this.open.get(id) : undefined;
    if (!session) return reply(response, 404, 'unknown or expired session: initialize again');
    session.lastUsed = this.now();
    await session.transport.handleRequest(request, response);
  }

  closeIdle(idleMs: number): void {
    const time = this.now();
    for (const session of this.open.values()) if (time - session.lastUsed > idleMs) this.close(session);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.values()].map(({ server }) => server.close()));
  }

  private origins(): Set<string> {
    return new Set([`http://${HOST}:${this.port}`, `http://localhost:${this.port}`, `http://[${HOST_V6}]:${this.port}`]);
  }

  private authorised(request: IncomingMessage): boolean {
    const header = Buffer.from(request.headers.authorization ?? '');
    return header.length === this.expected.length && timingSafeEqual(header, this.expected);
  }

  /** A request without a session id: only an initialize opens a session; anything else is answered without a server. */
  private async initialize(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const first = 'Bad Request: no Mcp-Session-Id header: POST an initialize request first, then send its session id';
    if (request.method !== 'POST') return reply(response, 400, first);
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request, MAX_INITIALIZE_BYTES));
    } catch (error) {
      if (error instanceof BodyTooLarge) return reply(response, 413, `Payload Too Large: a request without a session is at most ${MAX_INITIALIZE_BYTES} bytes`);
      return reply(response, 400, 'Parse error: the body is not JSON', -32700);
    }
    if (!(Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body))) return reply(response, 400, first);
    const session = await this.start();
    try {
      await session.transport.handleRequest(request, response, body);
    } finally {
      // An initialize the transport refused (in a batch, a wrong Accept) opened no session: nothing may keep its server.
      const id = session.transport.sessionId;
      if (id === undefined || this.open.get(id) !== session) this.close(session);
    }
  }

  /** A new server on a new transport, closing the session idle longest when the cap is reached. */
  private async start(): Promise<Session> {
    if (this.open.size >= (this.http.maxSessions ?? DEFAULT_MAX_SESSIONS)) {
      const oldest = [...this.open.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (oldest) this.close(oldest);
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.open.set(id, session),
      // Loopback only, and no page in a browser may reach it through a rebound name.
      enableDnsRebindingProtection: true,
      allowedHosts: [`${HOST}:${this.port}`, `localhost:${this.port}`, `[${HOST_V6}]:${this.port}`],
    });
    const session: Session = { transport, server: createServer(this.deps, this.options), lastUsed: this.now() };
    transport.onclose = () => {
      if (transport.sessionId !== undefined && this.open.get(transport.sessionId) === session) this.open.delete(transport.sessionId);
    };
    await session.server.connect(transport);
    return session;
  }

  /** Ends a session: its server closes its transport (and the event streams open on it) and aborts its calls. */
  private close(session: Session): void {
    const id = session.transport.sessionId;
    if (id !== undefined && this.open.get(id) === session) this.open.delete(id);
    void session.server.close().catch(() => undefined);
  }
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
