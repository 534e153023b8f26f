import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { EMULATOR_RUN_HEADER } from '../contract/ids.js';
import type { Clock } from './clock.js';
import { FaultSpecError, type FaultDecision, type Faults } from './faults.js';
import { bodyData, parseBody, type FormSpec, type ParsedBody } from './form.js';
import { allowedMethods, browsablePage, negotiate, optionsMetadata, tokenAuthentication, viewInfo, type Rendering, type ViewInfo } from './drf-view.js';
import { BodyTooLarge, HttpError, readBody, sendEmpty, sendHtmlNotFound, sendJson, sendJsonText, sendTooLarge, serverError } from './http.js';
import type { Request as RouteInput, Route } from './route-types.js';
import type { State } from './state.js';
import { hostRefusal } from './host-guard.js';

// The emulator's HTTP server: every request below the base path goes through the injected faults
// to its route, in the service's order (Django's trailing-slash redirect, then DRF's negotiation,
// authentication, method and handler: drf-view.ts); the control routes below /_emulator/ answer
// at once, and each request is logged.

export const BASE_PATH = '/api/v1';
/** The emulator's own control routes: outside the service's base path, so they cannot collide with it. */
const CONTROL_PATH = '/_emulator/';
/** How many requests the log keeps at least (the latest). */
export const REQUEST_LOG_SIZE = 10_000;

/** A request path nothing in which a URL parser would change: no dots, escapes, query, `//` start or backslash. */
const PLAIN_PATH = /^\/(?!\/)[\w\-/]*$/;

/** One request as the emulator saw it (the request log). */
export interface RequestRecord {
  method: string;
  /** Path below the base URL (e.g. /tasks/browser-use/), with the query string. */
  path: string;
  status: number;
  /** The injected fault, when one answered instead of the route: "503", "429", "reset", "outage". */
  fault?: string;
  /** The emulator clock's time when the request arrived (ms since the epoch). */
  at: number;
}

/** The latest requests: trimmed to the latest REQUEST_LOG_SIZE once it holds twice as many, so it never grows without end. */
export class RequestLog {
  private list: RequestRecord[] = [];

  get records(): readonly RequestRecord[] {
    return this.list;
  }

  add(record: RequestRecord): void {
    if (this.list.length >= 2 * REQUEST_LOG_SIZE) this.list = this.list.slice(-REQUEST_LOG_SIZE);
    this.list.push(record);
  }

  clear(): void {
    this.list = [];
  }
}

/** What the server works with. */
export interface ServerParts {
  state: State;
  clock: Clock;
  routes: Route[];
  faults: Faults;
  requests: RequestLog;
  apiKey: string;
  maxBodyBytes: number;
  latencyMs?: number;
  log?: (line: string) => void;
  /** Whether a request with this Host header is answered (host-guard.ts); every one when absent. */
  hostAllowed?: (host: string | undefined) => boolean;
  /** Forgets every record (POST /_emulator/reset). */
  reset(): void;
}

/** The base of each Host header's URLs, checked once: a host the URL parser refuses fails every request it sends (500). */
const bases = new Map<string, string>();
function baseFor(host = 'localhost'): string {
  let base = bases.get(host);
  if (base === undefined) {
    base = new URL(`http://${host}`).href;
    if (bases.size >= 64) bases.clear(); // a client naming many hosts does not grow it
    bases.set(host, base);
  }
  return base;
}

/** What a route sees of a request: its URL is parsed only if the route reads it (a create does not). */
class RouteRequest implements RouteInput {
  constructor(
    readonly method: string,
    readonly path: string,
    private readonly parse: () => URL,
    readonly params: string[],
    readonly body: RouteInput['body'],
    readonly rawBody: string,
    readonly contentType: string | undefined,
  ) {}

  get url(): URL {
    return this.parse();
  }
}

/** The server (not yet listening); an error a route did not expect answers 500 and is logged. */
export function createEmulatorServer(parts: ServerParts): Server {
  const log = parts.log ?? (() => undefined);
  const startedAt = parts.clock.now();
  return createServer((req, res) => {
    void handle(parts, startedAt, req, res).catch((error: unknown) => {
      log(`internal error: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { detail: 'Internal server error.' });
    });
  });
}

async function handle(parts: ServerParts, startedAt: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { clock, log } = parts;
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  // Before anything else, the control routes too: a page of another site (DNS rebinding) gets nothing.
  if (parts.hostAllowed && !parts.hostAllowed(req.headers.host)) {
    if (log) log(`${method} ${target.slice(0, 200)} -> 421 (Host ${JSON.stringify((req.headers.host ?? '').slice(0, 200))} is not a loopback name)`);
    res.setHeader('connection', 'close');
    return sendJson(res, 421, hostRefusal(req.headers.host ?? ''));
  }
  // A plain path is read as it is; anything else goes through the URL parser (its ~2 us mattered
  // to a create: the emulator bounds run-batch's throughput figure). Routes parse it when they read it.
  const base = baseFor(req.headers.host);
  let parsed = PLAIN_PATH.test(target) ? undefined : new URL(target, base);
  const url = { pathname: parsed?.pathname ?? target, search: parsed?.search ?? '' };
  const fullUrl = () => (parsed ??= new URL(target, base));
  const record: RequestRecord = { method, path: `${url.pathname.startsWith(BASE_PATH) ? url.pathname.slice(BASE_PATH.length) : url.pathname}${url.search}`, status: 0, at: clock.now() };
  const control = url.pathname.startsWith(CONTROL_PATH);
  // Which set of records answers: a batch's ledger notes it, to tell a rerun that they are gone.
  res.setHeader(EMULATOR_RUN_HEADER, parts.state.run);
  if (!control) {
    parts.requests.add(record);
    res.once('finish', () => (record.status = res.statusCode)); // stays 0 for a connection cut off
  }
  if (log) res.on('finish', () => log(`${method} ${url.pathname}${url.search} -> ${res.statusCode}${record.fault ? ` (fault: ${record.fault})` : ''}`));
  let rawBody: string;
  try {
    rawBody = await readBody(req, parts.maxBodyBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    sendTooLarge(res);
    req.destroy();
    return;
  }
  if (control) return controlRoute(parts, method, url.pathname.slice(CONTROL_PATH.length), rawBody, res);
  if (parts.latencyMs) await clock.sleep(parts.latencyMs);
  if (!url.pathname.startsWith(`${BASE_PATH}/`)) return sendHtmlNotFound(res, url.pathname);
  // Awaited only when a fault adds latency: a promise per request cost the create hot path.
  const faulted = injectFault(parts, startedAt, req, res, record, url);
  if (faulted === true || (faulted !== false && (await faulted))) return;
  const path = url.pathname.slice(BASE_PATH.length);
  const match = matchRoute(parts.routes, path);
  if (match === 'redirect') {
    res.writeHead(301, { location: `${url.pathname}/${url.search}`, 'content-type': 'text/html; charset=utf-8' });
    return void res.end();
  }
  if (!match) return sendHtmlNotFound(res, url.pathname);
  const call = { parts, req, res, route: match.route, params: match.params, path, method, rawBody, url: fullUrl, search: url.search };
  if (match.route.serve) return ownView(call, match.route.serve);
  return match.route.public ? plainView(call) : drfView(call);
}

interface Call {
  parts: ServerParts;
  req: IncomingMessage;
  res: ServerResponse;
  route: Route;
  params: string[];
  path: string;
  method: string;
  rawBody: string;
  url: () => URL;
  search: string;
}

/** A plain Django view (the inbound webhook): @require_POST's empty 405 with `Allow`, no negotiation, no API key. */
async function plainView(call: Call): Promise<void> {
  const { route, method, res } = call;
  const handler = route.methods[method];
  if (!handler) {
    res.writeHead(405, { allow: Object.keys(route.methods).join(', '), 'content-type': 'text/html; charset=utf-8' });
    return void res.end();
  }
  await answer(call, handler, { renderer: 'json' }, undefined);
}

/**
 * A DRF view, in APIView.dispatch's order (rest_framework/views.py): every answer carries `Allow`
 * and `Vary: Accept`; initial() negotiates the renderer, authenticates and checks permissions;
 * then the method's handler, HEAD as GET on a viewset, OPTIONS the metadata, else 405.
 */
async function drfView(call: Call): Promise<void> {
  const { parts, req, res, route, method, search } = call;
  const view = viewInfo(call.path);
  res.setHeader('allow', allowHeader(route, view));
  res.setHeader('vary', 'Accept');
  let rendering: Rendering = JSON_RENDERING;
  try {
    const accept = req.headers.accept;
    const plain = !search.includes('format=') && (accept === undefined || accept === '*/*' || accept === 'application/json');
    if (!plain) rendering = negotiate(call.url().searchParams.getAll('format').at(-1) ?? null, accept);
    authenticate(parts, req);
    if (method === 'OPTIONS') return sendRendered(res, rendering, view, 200, JSON.stringify(optionsMetadata(view)));
    const handler = route.methods[method === 'HEAD' && !view.functionView ? 'GET' : method];
    if (!handler) throw new HttpError(405, { detail: `Method "${method}" not allowed.` });
    await answer(call, handler, rendering, view);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    sendRendered(res, rendering, view, error.status, JSON.stringify(error.body));
  }
}

const JSON_RENDERING: Rendering = { renderer: 'json' };

/**
 * An APIView that answers its methods itself (api/mcp_views.py GobiiMCPView): DRF's initial() checks
 * the key first (MCPAPIKeyAuthentication: X-Api-Key, else `Authorization: Bearer`), and every
 * answer gets finalize_response's `Allow` (the view's methods) and `Vary: Accept`.
 */
async function ownView(call: Call, serve: NonNullable<Route['serve']>): Promise<void> {
  const { parts, req, res } = call;
  res.setHeader('allow', 'GET, POST, OPTIONS');
  res.setHeader('vary', 'Accept');
  try {
    const bearer = /^bearer (.+)$/is.exec(req.headers.authorization ?? '')?.[1]?.trim();
    const key = req.headers['x-api-key'] || bearer;
    if (!key) throw new HttpError(403, { detail: 'Authentication credentials were not provided.' });
    if (key !== parts.apiKey) throw new HttpError(403, { detail: 'Invalid API key' });
    if (!['GET', 'POST', 'OPTIONS'].includes(call.method)) throw new HttpError(405, { detail: `Method "${call.method}" not allowed.` });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return sendJson(res, error.status, error.body);
  }
  // A tool may change records in place: the next periodic save must see it.
  if (call.method === 'POST') parts.state.touch();
  try {
    await serve({ req, res, rawBody: call.rawBody, url: call.url() });
  } catch (error) {
    // A route a tool called failed as the service's view would (a 500 with its error id).
    if (!(error instanceof HttpError) || res.headersSent) throw error;
    sendJson(res, error.status, error.body);
  }
}

/** Each route's Allow header, worked out once (a route's view is a function view or not for all its paths). */
const allowHeaders = new WeakMap<Route, string>();
function allowHeader(route: Route, view: ViewInfo): string {
  let header = allowHeaders.get(route);
  if (header === undefined) allowHeaders.set(route, (header = allowedMethods(Object.keys(route.methods), view).join(', ')));
  return header;
}

/** The service's authentication classes in order: X-Api-Key, then (no session here) Token; none is a 403. */
function authenticate(parts: ServerParts, req: IncomingMessage): void {
  const key = req.headers['x-api-key'];
  if (key) {
    if (key !== parts.apiKey) throw new HttpError(403, { detail: 'Invalid API key' });
    return;
  }
  tokenAuthentication(req.headers.authorization, () => serverError(parts.state.newId()));
  throw new HttpError(403, { detail: 'Authentication credentials were not provided.' });
}

/** Runs the handler (a HEAD runs GET's) and sends its answer; an HttpError it throws is answered too. */
async function answer(call: Call, handler: Route['methods'][string], rendering: Rendering, view: ViewInfo | undefined): Promise<void> {
  const { parts, req, res, rawBody } = call;
  const method = call.method === 'HEAD' ? 'GET' : call.method;
  // A write may change a record in place (a rename): the next periodic save must see it.
  if (method !== 'GET') parts.state.touch();
  try {
    // Read only when the handler asks, as DRF parses request.data on first use (a 409 comes first).
    let body: ParsedBody | undefined;
    const data = (spec: FormSpec) => bodyData((body ??= parseBody(rawBody, req.headers['content-type'])), spec, method === 'PATCH');
    const result = await handler(new RouteRequest(method, call.path, call.url, call.params, data, rawBody, req.headers['content-type']));
    const json = result.json ?? (result.body === undefined ? undefined : JSON.stringify(result.body));
    sendRendered(res, rendering, view, result.status, json);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    sendRendered(res, rendering, view, error.status, JSON.stringify(error.body));
  }
}

/** An answer through the negotiated renderer: JSON (indented if asked), or the browsable page; no body is no content type. */
function sendRendered(res: ServerResponse, rendering: Rendering, view: ViewInfo | undefined, status: number, json: string | undefined): void {
  if (json === undefined) return sendEmpty(res, status);
  if (rendering.renderer === 'api' && view) {
    const html = browsablePage(view, status, JSON.stringify(JSON.parse(json), null, 4));
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
    return void res.end(html);
  }
  sendJsonText(res, status, rendering.indent ? JSON.stringify(JSON.parse(json), null, rendering.indent) : json);
}

type Url = { pathname: string; search: string };

/** Answers with the injected fault, if one falls on this request (true), after any extra latency; arms a slow body. */
function injectFault(parts: ServerParts, startedAt: number, req: IncomingMessage, res: ServerResponse, record: RequestRecord, url: Url): boolean | Promise<boolean> {
  const decision = parts.faults.decide(record.method, url.pathname.slice(BASE_PATH.length), parts.clock.now() - startedAt);
  if (decision.latencyMs > 0) return parts.clock.sleep(decision.latencyMs).then(() => answerFault(parts, decision, req, res, record, url));
  return answerFault(parts, decision, req, res, record, url);
}

function answerFault(parts: ServerParts, decision: FaultDecision, req: IncomingMessage, res: ServerResponse, record: RequestRecord, url: Url): boolean {
  const { clock, log } = parts;
  const method = record.method;
  if (decision.reset) {
    record.fault = 'reset';
    if (log) log(`${method} ${url.pathname}${url.search} -> connection reset (fault)`);
    req.socket.resetAndDestroy();
    return true;
  }
  if (decision.status !== undefined) {
    record.fault = decision.outage ? 'outage' : String(decision.status);
    sendFault(res, decision.status, decision.retryAfter, parts.state);
    return true;
  }
  if (decision.slowMs > 0) slowDown(res, decision.slowMs, clock);
  return false;
}

/**
 * The route for a path, or 'redirect' for a path missing only its trailing slash, whatever the
 * method: Django's CommonMiddleware (APPEND_SLASH) answers the URL resolver's 404 with a 301 to the
 * slashed URL, and only raises instead of redirecting a POST, PUT or PATCH under DEBUG, which the
 * service's settings leave off (config/settings.py DEBUG defaults to False). undefined when none matches.
 */
function matchRoute(routes: Route[], path: string): { route: Route; params: string[] } | 'redirect' | undefined {
  if (path.endsWith('/')) return findRoute(routes, path);
  return findRoute(routes, `${path}/`) ? 'redirect' : undefined;
}

/** GET/PUT/DELETE /_emulator/faults, GET/DELETE /_emulator/requests, POST /_emulator/reset. */
function controlRoute(parts: ServerParts, method: string, name: string, rawBody: string, res: ServerResponse): void {
  const { faults } = parts;
  const faultState = () => ({ spec: faults.describe().spec, seed: faults.describe().seed });
  if (name === 'faults') {
    if (method === 'GET') return sendJson(res, 200, faultState());
    if (method === 'DELETE') {
      faults.set('');
      return sendJson(res, 200, faultState());
    }
    if (method === 'PUT' || method === 'POST') {
      try {
        const input = controlBody(rawBody);
        faults.set(input.spec, input.seed);
      } catch (error) {
        if (error instanceof FaultSpecError || error instanceof SyntaxError) return sendJson(res, 400, { detail: error.message });
        throw error;
      }
      return sendJson(res, 200, faultState());
    }
  } else if (name === 'requests') {
    if (method === 'GET') return sendJson(res, 200, { requests: parts.requests.records });
    if (method === 'DELETE') {
      parts.requests.clear();
      return sendEmpty(res, 204);
    }
  } else if (name === 'reset' && method === 'POST') {
    parts.reset();
    return sendEmpty(res, 204);
  } else {
    return sendJson(res, 404, { detail: 'Not found. Control routes: /_emulator/faults, /_emulator/requests, /_emulator/reset.' });
  }
  return sendJson(res, 405, { detail: `Method "${method}" not allowed.` });
}

/** The body of PUT /_emulator/faults: JSON `{"spec": "...", "seed": N}`, or the spec as plain text. */
function controlBody(text: string): { spec: string; seed?: number } {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return { spec: trimmed };
  const value = JSON.parse(trimmed) as { spec?: unknown; seed?: unknown };
  if (typeof value.spec !== 'string') throw new FaultSpecError('give {"spec": "<faults>"} (and optionally "seed": <integer>)');
  if (value.seed !== undefined && !Number.isInteger(value.seed)) throw new FaultSpecError('"seed" must be an integer');
  return { spec: value.spec, ...(value.seed === undefined ? {} : { seed: value.seed as number }) };
}

/** An injected error answer, shaped as the service (500) or its proxy (502, 503) or a throttle (429) sends it. */
function sendFault(res: ServerResponse, status: number, retryAfter: number | undefined, state: State): void {
  if (status === 500) return sendJson(res, 500, { detail: 'Internal server error.', error_id: state.newId() });
  if (status === 429) {
    const seconds = retryAfter ?? 1;
    const body = JSON.stringify({ detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.` });
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(seconds), 'content-length': Buffer.byteLength(body) });
    return void res.end(body);
  }
  const title = status === 502 ? '502 Bad Gateway' : '503 Service Temporarily Unavailable';
  const html = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

/** Makes the answer's body trickle out: headers at once, then the body in 10 pieces over `ms` (on the emulator's clock). */
function slowDown(res: ServerResponse, ms: number, clock: Clock): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    const body = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.alloc(0);
    res.flushHeaders();
    const pieces = 10;
    const size = Math.ceil(body.length / pieces) || 1;
    void (async () => {
      for (let offset = 0; offset < body.length; offset += size) {
        await clock.sleep(ms / pieces);
        if (res.destroyed) return;
        res.write(body.subarray(offset, offset + size));
      }
      end();
    })();
    return res;
  }) as typeof res.end;
}

function findRoute(routes: Route[], path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1) };
  }
  return undefined;
}
