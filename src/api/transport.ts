import { Agent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import { neverSent } from './retry.js';

// How one HTTP exchange is sent: Node's own http/https with a keep-alive agent. Node's http is part
// of every node process already, so a command pays nothing to load it; loading undici cost ~55 ms
// per command (docs/performance.md, "Design notes: dependencies"). https loads only for an https base URL.

export interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole exchange (connect, headers and body) must finish within this. */
  timeoutMs: number;
  /** Aborts the exchange at once (Ctrl-C); the error is the signal's reason. */
  signal?: AbortSignal;
  /** The largest body read (bytes): a longer one is refused as it streams in (BodyTooLargeError). */
  maxBodyBytes?: number;
}

/** The answer's body is larger than SendOptions.maxBodyBytes: reading stopped there. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    /** The size the answer declared (Content-Length), when it did. */
    readonly declared: number | undefined,
    readonly status: number,
  ) {
    super(`the answer is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export interface HttpResponse {
  readonly status: number;
  /** Parsed when first read: most answers are read without looking at their headers. */
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** An answer whose headers node:http parses only when asked (~3 us of an exchange that reads none). */
class Answer implements HttpResponse {
  readonly status: number;
  readonly #response: IncomingMessage;

  constructor(
    response: IncomingMessage,
    readonly text: string,
  ) {
    this.#response = response;
    this.status = response.statusCode ?? 0;
  }

  get headers(): IncomingHttpHeaders {
    return this.#response.headers;
  }

  toJSON(): { status: number; headers: IncomingHttpHeaders; text: string } {
    return { status: this.status, headers: this.headers, text: this.text };
  }
}

/** A header's value from the raw list, without parsing them all. */
function rawHeader(raw: string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).length === name.length && (raw[i] as string).toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}

/** An idle kept-alive socket is dropped after this (servers commonly close theirs at 5 s). */
export const IDLE_SOCKET_MS = 4000;

/** How the API client sends one request: node:http (HttpTransport) or undici's pool (PooledTransport). */
export interface Transport {
  send(url: URL, options: SendOptions): Promise<HttpResponse>;
  /** Drops every kept-alive connection. */
  close(): void;
}

/**
 * Sends requests over kept-alive connections. Idle sockets never hold the process open (Node
 * unrefs them), every timer is cleared when its exchange ends, and close() drops the sockets.
 */
export class HttpTransport implements Transport {
  private readonly agents = new Map<string, Agent>();
  private readonly targets = new WeakMap<URL, Target>();

  send(url: URL, options: SendOptions): Promise<HttpResponse> {
    // Plain http stays synchronous up to the request: a batch sends thousands of them.
    if (url.protocol === 'https:') return this.sendHttps(url, options);
    const agent = this.agent('http', Agent);
    if (url.username !== '' || url.password !== '') return exchange(() => httpRequest(url, this.requestOptions(options, agent)), options);
    const { hostname, port, path, host } = this.target(url);
    // The headers go as a list, Host first (what node:http would add): node:http then writes them
    // as they are, instead of storing each with setHeader and reading them all back.
    const { method, body } = options;
    const headers = ['Host', host];
    for (const name in options.headers) headers.push(name, options.headers[name] as string);
    // A POST without a body says Content-Length: 0, as node:http would (not a chunked empty body).
    if (body !== undefined) headers.push('content-length', String(Buffer.byteLength(body)));
    else if (!BODILESS_METHODS.has(method)) headers.push('content-length', '0');
    return exchange(() => httpRequest({ hostname, port, path, method, headers, agent }), options);
  }

  /** Drops every kept-alive connection. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private async sendHttps(url: URL, options: SendOptions): Promise<HttpResponse> {
    const https = await import('node:https');
    return exchange(() => https.request(url, this.requestOptions(options, this.agent('https', https.Agent))), options);
  }

  private requestOptions(options: SendOptions, agent: Agent): RequestOptions {
    const { method, body } = options;
    const headers = body === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(body)) };
    return { method, headers, agent };
  }

  /** Where a plain URL goes: cheaper than node:http's general URL conversion, and kept per URL (a batch sends the same one thousands of times). */
  private target(url: URL): Target {
    let target = this.targets.get(url);
    if (!target) {
      const { hostname } = url;
      target = { hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname, port: url.port, path: `${url.pathname}${url.search}`, host: url.host };
      this.targets.set(url, target);
    }
    return target;
  }

  private agent(key: 'http' | 'https', AgentClass: typeof Agent): Agent {
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new AgentClass({ keepAlive: true, timeout: IDLE_SOCKET_MS });
      this.agents.set(key, agent);
    }
    return agent;
  }
}

/** Methods node:http sends without a body by default; the others get a Content-Length. */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** Where a plain http URL goes, as node:http's options (and its Host header). */
interface Target {
  hostname: string;
  port: string;
  path: string;
  host: string;
}

/** A connection not made within this fails as never sent, so even a create may be tried again. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * An error whose code means "never sent" (a host or network unreachable) on a connection already
 * made: the request may have gone out, so it reads as a broken connection (a create is not repeated).
 */
export function brokeAfterConnecting(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !neverSent(code)) return error;
  return Object.assign(new Error(`the connection broke after it was made (${code})`), { code: 'ECONNRESET', cause: error });
}

/** A time limit that ran out, named as undici names its own (the retry policy reads the code). */
export function timeoutError(name: string, message: string, code?: string): Error {
  return Object.assign(new Error(message), { name, ...(code ? { code } : {}) });
}

/** One request's life: its timers, its abort, its answer. Exported for tests that hand it a request that never connects. */
export function exchange(start: () => ClientRequest, options: SendOptions): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return reject(signal.reason);
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    const req = start();
    const finish = (error: unknown, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(answerTimer);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined && response) resolve(response);
      else {
        req.destroy();
        reject(error);
      }
    };
    const onAbort = () => finish(signal?.reason);
    // The retry policy knows a connection that was never made (so even a create may be sent again)
    // by undici's code for it: a time limit that runs out before the connection is made says so.
    let connected = false;
    const connectTimeout = (ms: number) => timeoutError('ConnectTimeoutError', `no connection within ${ms} ms`, 'UND_ERR_CONNECT_TIMEOUT');
    const answerTimer = setTimeout(
      () => finish(connected ? timeoutError('TimeoutError', `no complete answer within ${timeoutMs} ms`) : connectTimeout(timeoutMs)),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });

    // Listeners with on(), not once(): each event comes at most once for a request (or does no harm
    // twice), and once() wraps every listener, which a batch of thousands of requests pays for.
    // A reused kept-alive socket is connected already: only a new connection gets a connect timer
    // (a shorter one than the answer's, when the answer's is longer than CONNECT_TIMEOUT_MS).
    req.on('socket', (socket) => {
      if (!socket.connecting) {
        connected = true;
        return;
      }
      socket.once('connect', () => {
        connected = true;
        clearTimeout(connectTimer);
      });
      if (timeoutMs > CONNECT_TIMEOUT_MS && !settled) connectTimer = setTimeout(() => finish(connectTimeout(CONNECT_TIMEOUT_MS)), CONNECT_TIMEOUT_MS);
    });
    req.on('error', (error) => finish(connected ? brokeAfterConnecting(error) : error));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      // A body past the limit is refused before it is read (Content-Length) or as it streams in.
      const limit = options.maxBodyBytes ?? Infinity;
      const length = rawHeader(res.rawHeaders, 'content-length');
      const declared = length === undefined ? undefined : Number(length);
      const tooLarge = () => finish(new BodyTooLargeError(limit, declared, res.statusCode ?? 0));
      if (declared !== undefined && declared > limit) return tooLarge();
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) tooLarge();
        else chunks.push(chunk);
      });
      res.on('error', (error) => finish(error));
      res.on('close', () => {
        if (!res.complete) finish(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' }));
      });
      res.on('end', () =>
        finish(undefined, new Answer(res, Buffer.concat(chunks).toString('utf8'))),
      );
    });
    req.end(options.body);
  });
}
