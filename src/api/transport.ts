import { Agent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type RequestOptions } from 'node:http';

// How one HTTP exchange is sent: Node's own http/https with a keep-alive agent. Node's http is part
// of every node process already, so a command pays nothing to load it; undici cost 30-50 ms per
// command to parse and compile (README, "Design notes"). https loads only for an https base URL.

export interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole exchange (connect, headers and body) must finish within this. */
  timeoutMs: number;
  /** Aborts the exchange at once (Ctrl-C); the error is the signal's reason. */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** An idle kept-alive socket is dropped after this (servers commonly close theirs at 5 s). */
const IDLE_SOCKET_MS = 4000;

/**
 * Sends requests over kept-alive connections. Idle sockets never hold the process open (Node
 * unrefs them), every timer is cleared when its exchange ends, and close() drops the sockets.
 */
export class HttpTransport {
  private readonly agents = new Map<string, Agent>();

  async send(url: URL, options: SendOptions): Promise<HttpResponse> {
    const https = url.protocol === 'https:';
    const request = https ? (await import('node:https')).request : httpRequest;
    const agent = await this.agentFor(https);
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const requestOptions: RequestOptions = { method: options.method, headers, agent };
    return exchange(() => request(url, requestOptions), options);
  }

  /** Drops every kept-alive connection. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private async agentFor(https: boolean): Promise<Agent> {
    const key = https ? 'https' : 'http';
    let agent = this.agents.get(key);
    if (!agent) {
      const AgentClass = https ? (await import('node:https')).Agent : Agent;
      agent = new AgentClass({ keepAlive: true, timeout: IDLE_SOCKET_MS });
      this.agents.set(key, agent);
    }
    return agent;
  }
}

/** Error of an exchange that ran out of time (name TimeoutError, as AbortSignal.timeout's). */
function timeoutError(connected: boolean, timeoutMs: number): Error {
  if (!connected) {
    // No connection was made, so nothing reached the service: the retry policy may send it again.
    return Object.assign(new Error(`connecting timed out after ${timeoutMs} ms`), {
      name: 'ConnectTimeoutError',
      code: 'UND_ERR_CONNECT_TIMEOUT',
    });
  }
  return Object.assign(new Error(`no complete answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
}

function exchange(start: () => ClientRequest, options: SendOptions): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(signal.reason);
    let connected = false;
    let settled = false;
    const req = start();
    const finish = (error: unknown, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined && response) resolve(response);
      else {
        req.destroy();
        reject(error);
      }
    };
    const onAbort = () => finish(signal?.reason);
    const timer = setTimeout(() => finish(timeoutError(connected, options.timeoutMs)), options.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    req.once('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.once('error', (error) => finish(error));
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', (error) => finish(error));
      res.once('close', () => {
        if (!res.complete) finish(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' }));
      });
      res.once('end', () =>
        finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.end(options.body);
  });
}
