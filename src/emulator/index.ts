import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICE_LIMITS } from '../contract/limits.js';
import { systemClock, type Clock } from './clock.js';
import { BodyTooLarge, HttpError, readBody, sendEmpty, sendHtmlNotFound, sendJson, sendJsonText, sendTooLarge } from './http.js';
import { bodyData, parseBody, type FormSpec, type ParsedBody } from './form.js';
import { Lifecycle } from './lifecycle.js';
import { buildRoutes, type Route } from './routes.js';
import { State } from './state.js';
import { WebhookSender } from './webhook.js';

export { PROMPT_MARKERS } from './lifecycle.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export { State } from './state.js';

export interface EmulatorOptions {
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
}

export interface RunningEmulator {
  baseUrl: string;
  port: number;
  /** The records, for tests and benchmarks that arrange data without HTTP. */
  state: State;
  close(): Promise<void>;
}

const BASE_PATH = '/api/v1';

/** The service version whose behaviour the emulator reproduces (see the README's "The emulator"). */
export const EMULATED_SERVICE = 'Gobii API 0.1.0 (OpenAPI 3.0.3 document of gobii-platform c9929bf, with service-behaviour.md)';

/** Starts the in-memory service: every route of the spec below /api/v1, behaving as documented. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const apiKey = options.apiKey ?? 'emulator-key';
  const log = options.log ?? (() => undefined);
  const maxBody = options.maxBodyBytes ?? SERVICE_LIMITS.requestBodyBytes;
  const state = new State(options.clock ?? systemClock());
  const lifecycle = new Lifecycle(state, options.taskDurationMs ?? 3000);
  const webhooks = new WebhookSender(state, log);
  lifecycle.onEnd((task) => webhooks.deliver(task));
  const routes = buildRoutes({ state, lifecycle });

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      log(`internal error: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { detail: 'Internal server error.' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    if (options.log) res.on('finish', () => log(`${method} ${url.pathname}${url.search} -> ${res.statusCode}`));
    let rawBody: string;
    try {
      rawBody = await readBody(req, maxBody);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      sendTooLarge(res);
      req.destroy();
      return;
    }
    if (options.latencyMs) await state.clock.sleep(options.latencyMs);

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
      const answer = await handler({ method, url, params, body });
      if (answer.json !== undefined) sendJsonText(res, answer.status, answer.json);
      else if (answer.body === undefined) sendEmpty(res, answer.status);
      else sendJson(res, answer.status, answer.body);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      sendJson(res, error.status, error.body);
    }
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
    close: async () => {
      lifecycle.stop();
      webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function findRoute(routes: Route[], path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1) };
  }
  return undefined;
}
