import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonContentType, parsePayload, type WebhookPayload } from './payload.js';

/** What is printed and stored per event: `{received_at, headers: {user-agent, content-type}, body}`. */
export interface EventRecord {
  received_at: string;
  headers: { 'user-agent': string | null; 'content-type': string | null };
  body: WebhookPayload;
}

/** A valid event and the bytes it came as (forwarded unchanged). */
export interface ReceivedEvent {
  record: EventRecord;
  raw: Buffer;
  /** What `persist` resolved with (the --output log's offset just past the event). */
  position?: number;
}

/** A request the listener turned away, and why. */
export interface Rejection {
  status: number;
  method: string;
  path: string;
  reason: string;
  userAgent: string | null;
}

export interface ListenerOptions {
  host?: string;
  port?: number;
  /** The secret path to accept (default: a random one). Others get 404. */
  path?: string;
  /** More paths to accept (e.g. the path of a tunnel's public URL). */
  extraPaths?: string[];
  /** Largest body accepted, in bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Return false to acknowledge an event but not keep it (e.g. another task's). */
  filter?: (payload: WebhookPayload) => boolean;
  /** Keep at most this many events; later ones get 503 (the listener is about to close). */
  limit?: number;
  /** Makes an event durable before it is acknowledged (resolving with where it was stored); a rejection answers 500. */
  persist?: (event: ReceivedEvent) => Promise<number | void>;
  /** Called, in order, for each kept event once it is durable and before the 200 goes out. */
  onEvent: (event: ReceivedEvent, sequence: number) => void;
  onRejected?: (rejection: Rejection) => void;
  onIgnored?: (event: ReceivedEvent) => void;
  /** A persist failure (the event was answered 500). */
  onError?: (error: Error, event: ReceivedEvent) => void;
  now?: () => Date;
}

export interface Listener {
  /** The URL to register: http://host:port/path. */
  url: string;
  host: string;
  port: number;
  path: string;
  readonly stats: ListenerStats;
  /** Stops taking requests, lets those under way finish, then closes. */
  close(): Promise<void>;
}

export interface ListenerStats {
  received: number;
  rejected: number;
  ignored: number;
  failed: number;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Past this much the connection is cut instead of read to the end for a clean 413. */
const DISCARD_LIMIT_FACTOR = 8;

/** A random, URL-safe path segment of 144 bits: the listener's shared secret. */
export function randomPath(): string {
  return `/${randomBytes(18).toString('base64url')}`;
}

/** `hooks/x` -> `/hooks/x`; rejects what cannot be a URL path. */
export function normalizePath(path: string): string {
  const trimmed = path.trim();
  if (trimmed === '' || /[\s?#]/.test(trimmed)) throw new Error(`"${path}" is not a URL path (no spaces, ? or #)`);
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The URL for an address: wildcard hosts are shown as loopback, IPv6 in brackets. */
export function listenerUrl(host: string, port: number, path: string): string {
  let shown = host;
  if (host === '0.0.0.0' || host === '') shown = '127.0.0.1';
  else if (host === '::') shown = '[::1]';
  else if (host.includes(':') && !host.startsWith('[')) shown = `[${host}]`;
  return `http://${shown}:${port}${path}`;
}

const OK_BODY = '{"ok":true}';
const OK_HEADERS = { 'content-type': 'application/json', 'content-length': String(OK_BODY.length) };

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const end = raw.search(/[?#]/);
  return end === -1 ? raw : raw.slice(0, end);
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

type BodyRead = { ok: true; body: Buffer } | { ok: false; tooLarge: true; cut: boolean };

/** Reads a body up to `max` bytes; past it, keeps reading (discarding) so the 413 can be sent cleanly. */
function readLimited(req: IncomingMessage, max: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        tooLarge = true;
        chunks.length = 0;
        if (size > max * DISCARD_LIMIT_FACTOR) {
          req.pause();
          resolve({ ok: false, tooLarge: true, cut: true });
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? { ok: false, tooLarge: true, cut: false } : { ok: true, body: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

/** The paths a listener answers: each given one, with and without a trailing slash (the service posts exactly the registered URL). */
function acceptedPaths(paths: string[]): Set<string> {
  const accepted = new Set<string>();
  for (const candidate of paths) {
    accepted.add(candidate);
    accepted.add(candidate.endsWith('/') && candidate.length > 1 ? candidate.slice(0, -1) : `${candidate}/`);
  }
  return accepted;
}

interface Refusal {
  status: number;
  reason: string;
  headers?: Record<string, string>;
}

/**
 * Why a request is turned away before its body is read (path, method, closing, content type,
 * declared size), or undefined. A refused request's body is drained, except one too large to read
 * through, whose connection is closed instead.
 */
function refusal(req: IncomingMessage, accepted: Set<string>, closing: boolean, maxBody: number): Refusal | undefined {
  const contentType = headerValue(req.headers['content-type']);
  let refused: Refusal | undefined;
  if (!accepted.has(pathOf(req.url))) refused = { status: 404, reason: 'unknown path' };
  else if (req.method !== 'POST') refused = { status: 405, reason: `method ${req.method ?? '?'} not allowed: webhooks are POSTed`, headers: { allow: 'POST' } };
  else if (closing) refused = { status: 503, reason: 'the listener is closing', headers: { connection: 'close' } };
  else if (!isJsonContentType(contentType)) refused = { status: 415, reason: `content type must be application/json, got ${contentType ?? 'none'}` };
  if (refused) {
    req.resume();
    return refused;
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBody * DISCARD_LIMIT_FACTOR) {
    return { status: 413, reason: `body of ${declared} bytes is over the ${maxBody}-byte limit`, headers: { connection: 'close' } };
  }
  return undefined;
}

/** Listens on `port` (0: any free one) at `host`; rejects when the address is taken or not this machine's. */
function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Starts the webhook listener. Per request: path (404), method (405), content type (415), size
 * (413), JSON and shape (400); a valid event is made durable (`persist`), handed to `onEvent`,
 * and only then answered 200. Events are handed over in the order their persist completed.
 */
export async function startListener(options: ListenerOptions): Promise<Listener> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path === undefined ? randomPath() : normalizePath(options.path);
  const accepted = acceptedPaths([path, ...(options.extraPaths ?? []).map(normalizePath)]);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const now = options.now ?? (() => new Date());
  const stats: ListenerStats = { received: 0, rejected: 0, ignored: 0, failed: 0 };
  let reserved = 0;
  let closing = false;
  /** Requests not yet both handled and answered; `idle` is called when it drops to 0. */
  let active = 0;
  let idle: (() => void) | undefined;

  const reject = (req: IncomingMessage, res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}) => {
    stats.rejected++;
    options.onRejected?.({ status, method: req.method ?? '', path: pathOf(req.url), reason, userAgent: headerValue(req.headers['user-agent']) });
    if (!res.headersSent) json(res, status, { error: reason }, headers);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refusal(req, accepted, closing, maxBody);
    if (refused) return reject(req, res, refused.status, refused.reason, refused.headers);
    const contentType = headerValue(req.headers['content-type']);
    const read = await readLimited(req, maxBody);
    if (!read.ok) {
      return reject(req, res, 413, `body is over the ${maxBody}-byte limit`, read.cut ? { connection: 'close' } : {});
    }
    const check = parsePayload(read.body);
    if (!check.ok) return reject(req, res, 400, check.reason);

    const event: ReceivedEvent = {
      record: {
        received_at: now().toISOString(),
        headers: { 'user-agent': headerValue(req.headers['user-agent']), 'content-type': contentType },
        body: check.payload,
      },
      raw: read.body,
    };
    if (options.filter && !options.filter(check.payload)) {
      stats.ignored++;
      options.onIgnored?.(event);
      return json(res, 200, { ok: true, ignored: true });
    }
    if (closing || (options.limit !== undefined && reserved >= options.limit)) {
      return reject(req, res, 503, 'the listener has all the events it was asked for and is closing', { connection: 'close' });
    }
    reserved++;
    try {
      event.position = (await options.persist?.(event)) ?? undefined;
    } catch (error) {
      reserved--;
      stats.failed++;
      options.onError?.(error as Error, event);
      return json(res, 500, { error: `could not store the event: ${(error as Error).message}` });
    }
    stats.received++;
    options.onEvent(event, stats.received);
    res.writeHead(200, OK_HEADERS).end(OK_BODY);
  }

  const server: Server = createServer((req, res) => {
    // Done when handled and the answer has been handed to the socket, so closing never cuts one short.
    let steps = 2;
    const stepDone = () => {
      if (--steps === 0 && --active === 0) idle?.();
    };
    active++;
    res.once('close', stepDone);
    handle(req, res).then(stepDone, (error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: (error as Error).message });
      stepDone();
    });
  });
  // Slow or stuck senders must not hold the listener open for ever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;

  const address = await listen(server, options.port ?? 0, host);

  let closed: Promise<void> | undefined;
  return {
    url: listenerUrl(host, address.port, path),
    host,
    port: address.port,
    path,
    stats,
    close() {
      closed ??= (async () => {
        closing = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (active > 0) await new Promise<void>((resolve) => (idle = resolve));
        // Requests under way have been answered; connections left are idle keep-alives.
        server.closeAllConnections();
        await stopped;
      })();
      return closed;
    },
  };
}

/** The URL to register: the public base (a tunnel) with the listener's secret path appended. */
export function publicWebhookUrl(publicUrl: string, secretPath: string): string {
  const url = new URL(publicUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${secretPath}`;
  return url.toString();
}
