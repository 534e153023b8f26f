import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../contract/atomic-write.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICE_LIMITS } from '../contract/limits.js';
import { EMULATOR_RUN_HEADER } from '../contract/ids.js';
import { ManualClock, systemClock, type Clock } from './clock.js';
import { BodyTooLarge, HttpError, readBody, sendEmpty, sendHtmlNotFound, sendJson, sendJsonText, sendTooLarge } from './http.js';
import { bodyData, parseBody, type FormSpec, type ParsedBody } from './form.js';
import { Lifecycle } from './lifecycle.js';
import { buildRoutes, type Request as RouteInput, type Route } from './routes.js';
import { State, type StateSnapshot } from './state.js';
import { Faults, FaultSpecError } from './faults.js';
import { WebhookSender } from './webhook.js';

export { PROMPT_MARKERS } from './lifecycle.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export { State, type StateSnapshot } from './state.js';
export { parseFaults, FaultSpecError } from './faults.js';

export interface EmulatorOptions {
  /** Port to listen on; 0 picks a free one (default 8787). */
  port?: number;
  host?: string;
  apiKey?: string;
  /** Time from create to a task's final state. */
  taskDurationMs?: number;
  /** Extra delay before every response. */
  latencyMs?: number;
  /** One line per request and per webhook delivery. */
  log?: (line: string) => void;
  /** The emulator's time (default: the system clock); tests pass a ManualClock and advance it. */
  clock?: Clock;
  /** Largest request body accepted (default: the service's proxy limit); larger answers 413. */
  maxBodyBytes?: number;
  /** Faults to inject (the grammar of faults.ts and docs/emulator-library.md), e.g. "503@10%, latency=50ms". */
  faults?: string;
  /** Makes ids and fault draws repeatable: the same seed and requests give the same ids and faults. */
  seed?: number;
  /** A JSON file the records are loaded from at start (when it exists) and saved to on close. */
  stateFile?: string;
  /** Completion webhooks delivered at once at most (default 16); the others wait their turn. */
  webhookConcurrency?: number;
}

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

export interface RunningEmulator {
  baseUrl: string;
  port: number;
  /** The records, for tests and benchmarks that arrange data without HTTP. */
  state: State;
  /** The emulator's clock (a ManualClock when given one). */
  clock: Clock;
  /** Moves a ManualClock forward, running what falls due (tasks start and end); throws on the system clock. */
  advance(ms: number): void;
  /** The faults in force: replace them (same grammar as --faults), or clear them. */
  faults: { set(spec: string, seed?: number): void; clear(): void; readonly spec: string };
  /** The requests answered since start (or the last reset), oldest first: at least the latest 10,000. */
  readonly requests: readonly RequestRecord[];
  /** Forgets every record, running task and logged request (faults stay). */
  reset(): void;
  /** Writes the records as JSON to `file` (default: the stateFile option). */
  save(file?: string): Promise<void>;
  close(): Promise<void>;
}

const BASE_PATH = '/api/v1';
/** The emulator's own control routes: outside the service's base path, so they cannot collide with it. */
const CONTROL_PATH = '/_emulator/';
/** How many requests the log keeps at least (the latest). */
export const REQUEST_LOG_SIZE = 10_000;

/** A request path nothing in which a URL parser would change: no dots, escapes, query, `//` start or backslash. */
const PLAIN_PATH = /^\/(?!\/)[\w\-/]*$/;

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
  ) {}

  get url(): URL {
    return this.parse();
  }
}

/** The service version whose behaviour the emulator reproduces (see docs/emulator.md). */
export const EMULATED_SERVICE = 'Gobii API 0.1.0 (OpenAPI 3.0.3 document of gobii-platform c9929bf, with docs/service-behaviour.md)';

/** Starts the in-memory service: every route of the spec below /api/v1, behaving as documented. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const apiKey = options.apiKey ?? 'emulator-key';
  const log = options.log ?? (() => undefined);
  const maxBody = options.maxBodyBytes ?? SERVICE_LIMITS.requestBodyBytes;
  const clock = options.clock ?? systemClock();
  const state = new State(clock, options.seed);
  const lifecycle = new Lifecycle(state, options.taskDurationMs ?? 3000);
  const webhooks = new WebhookSender(state, log, options.webhookConcurrency);
  lifecycle.onEnd((task) => webhooks.deliver(task));
  // Loaded before the routes are built, so the loaded agents' schedules are armed with them.
  if (options.stateFile) {
    await loadState(options.stateFile, state, lifecycle);
    // Checked now, not at close: a state that cannot be saved would be lost when the emulator stops.
    await checkSavable(options.stateFile);
  }
  const routes = buildRoutes({ state, lifecycle });
  const faults = new Faults(options.faults ?? '', options.seed ?? 1);
  const startedAt = clock.now();
  let requests: RequestRecord[] = [];

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      log(`internal error: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { detail: 'Internal server error.' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    // A plain path is read as it is; anything else goes through the URL parser (its ~2 us mattered
    // to a create: the emulator bounds run-batch's throughput figure). Routes parse it when they read it.
    const base = baseFor(req.headers.host);
    let parsed = PLAIN_PATH.test(target) ? undefined : new URL(target, base);
    const url = { pathname: parsed?.pathname ?? target, search: parsed?.search ?? '' };
    const fullUrl = () => (parsed ??= new URL(target, base));
    const record: RequestRecord = { method, path: `${url.pathname.startsWith(BASE_PATH) ? url.pathname.slice(BASE_PATH.length) : url.pathname}${url.search}`, status: 0, at: clock.now() };
    const control = url.pathname.startsWith(CONTROL_PATH);
    // Which set of records answers: a batch's ledger notes it, to tell a rerun that they are gone.
    res.setHeader(EMULATOR_RUN_HEADER, state.run);
    if (!control) {
      // The log keeps the latest requests only, so a long-running emulator does not grow without end.
      if (requests.length >= 2 * REQUEST_LOG_SIZE) requests = requests.slice(-REQUEST_LOG_SIZE);
      requests.push(record);
      res.once('finish', () => (record.status = res.statusCode)); // stays 0 for a connection cut off
    }
    if (options.log) res.on('finish', () => log(`${method} ${url.pathname}${url.search} -> ${res.statusCode}${record.fault ? ` (fault: ${record.fault})` : ''}`));
    let rawBody: string;
    try {
      rawBody = await readBody(req, maxBody);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      sendTooLarge(res);
      req.destroy();
      return;
    }
    if (control) return controlRoute(method, url.pathname.slice(CONTROL_PATH.length), rawBody, res);
    if (options.latencyMs) await state.clock.sleep(options.latencyMs);
    if (url.pathname.startsWith(`${BASE_PATH}/`)) {
      const decision = faults.decide(method, url.pathname.slice(BASE_PATH.length), clock.now() - startedAt);
      if (decision.latencyMs > 0) await clock.sleep(decision.latencyMs);
      if (decision.reset) {
        record.fault = 'reset';
        if (options.log) log(`${method} ${url.pathname}${url.search} -> connection reset (fault)`);
        req.socket.resetAndDestroy();
        return;
      }
      if (decision.status !== undefined) {
        record.fault = decision.outage ? 'outage' : String(decision.status);
        return sendFault(res, decision.status, decision.retryAfter, state);
      }
      if (decision.slowMs > 0) slowDown(res, decision.slowMs, clock);
    }

    if (!url.pathname.startsWith(`${BASE_PATH}/`)) return sendHtmlNotFound(res, url.pathname);
    const path = url.pathname.slice(BASE_PATH.length);
    // Without the trailing slash: GET and DELETE are redirected, other methods fail (as in Django).
    if (!path.endsWith('/')) {
      const slashed = findRoute(routes, `${path}/`);
      if (slashed && (method === 'GET' || method === 'DELETE')) {
        res.writeHead(301, { location: `${url.pathname}/${url.search}` });
        return void res.end();
      }
      return sendHtmlNotFound(res, url.pathname);
    }
    const match = findRoute(routes, path);
    if (!match) return sendHtmlNotFound(res, url.pathname);
    const { route, params } = match;
    if (!route.public) {
      const key = req.headers['x-api-key'];
      if (!key) return sendJson(res, 403, { detail: 'Authentication credentials were not provided.' });
      if (key !== apiKey) return sendJson(res, 403, { detail: 'Invalid API key' });
    }
    const handler = route.methods[method];
    if (!handler) return sendJson(res, 405, { detail: `Method "${method}" not allowed.` });
    try {
      // Read only when the handler asks, as DRF parses request.data on first use (a 409 comes first).
      let parsed: ParsedBody | undefined;
      const body = (spec: FormSpec) => bodyData((parsed ??= parseBody(rawBody, req.headers['content-type'])), spec, method === 'PATCH');
      const answer = await handler(new RouteRequest(method, path, fullUrl, params, body));
      if (answer.json !== undefined) sendJsonText(res, answer.status, answer.json);
      else if (answer.body === undefined) sendEmpty(res, answer.status);
      else sendJson(res, answer.status, answer.body);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      sendJson(res, error.status, error.body);
    }
  }

  /** GET/PUT/DELETE /_emulator/faults, GET/DELETE /_emulator/requests, POST /_emulator/reset. */
  function controlRoute(method: string, name: string, rawBody: string, res: ServerResponse): void {
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
      if (method === 'GET') return sendJson(res, 200, { requests });
      if (method === 'DELETE') {
        requests = [];
        return sendEmpty(res, 204);
      }
    } else if (name === 'reset' && method === 'POST') {
      reset();
      return sendEmpty(res, 204);
    } else {
      return sendJson(res, 404, { detail: 'Not found. Control routes: /_emulator/faults, /_emulator/requests, /_emulator/reset.' });
    }
    return sendJson(res, 405, { detail: `Method "${method}" not allowed.` });
  }

  function reset(): void {
    lifecycle.stop();
    state.clear();
    requests = [];
  }

  async function save(file = options.stateFile): Promise<void> {
    if (!file) throw new Error('no state file: pass one to save(file) or start with stateFile');
    // Atomic, so a kill during the save never leaves a truncated state file.
    await writeFileAtomically(file, `${JSON.stringify(state.snapshot())}\n`).catch((error: unknown) => {
      throw new StateFileError(`cannot save the records to ${file}: ${(error as Error).message}`);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    baseUrl: `http://${host}:${address.port}${BASE_PATH}`,
    port: address.port,
    state,
    clock,
    advance(ms) {
      if (!(clock instanceof ManualClock)) throw new Error('advance() needs the emulator started with a ManualClock (clock: new ManualClock())');
      clock.advance(ms);
    },
    faults: {
      set: (spec, seed) => faults.set(spec, seed),
      clear: () => faults.set(''),
      get spec() {
        return faults.describe().spec;
      },
    },
    get requests() {
      return requests;
    },
    reset,
    save,
    close: async () => {
      lifecycle.stop();
      webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (options.stateFile) await save();
    },
  };
}

/** A state file (stateFile, --state) that cannot be read, is not the emulator's, or cannot be written. */
export class StateFileError extends Error {}

/** Throws a StateFileError saying why `file` could not be saved: its folder is missing or not writable. */
async function checkSavable(file: string): Promise<void> {
  const folder = dirname(file);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new StateFileError(`cannot save to ${file}: the folder ${folder} does not exist`);
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new StateFileError(`cannot save to ${file}: the folder ${folder} is not writable`);
  }
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

async function loadState(file: string, state: State, lifecycle: Lifecycle): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // a first run: saved on close
    throw new StateFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    state.load(JSON.parse(text) as StateSnapshot);
  } catch (error) {
    throw new StateFileError(`${file} is not a state file the emulator wrote (${(error as Error).message})`);
  }
  // Tasks that were running when the state was saved run again from where they were.
  for (const task of state.tasks.values()) if (task.status === 'pending' || task.status === 'in_progress') lifecycle.start(task);
}

function findRoute(routes: Route[], path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1) };
  }
  return undefined;
}
