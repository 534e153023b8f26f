// A small fault-injecting HTTP proxy, in process, in front of the emulator. A plan says which
// requests go wrong and how; everything else passes through untouched. Outages and restarts close
// the listening socket for real (so clients see ECONNREFUSED) and reopen it when the shared fake
// clock has moved past their end: nothing here waits for real seconds.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FakeClock } from '../helpers/fake-clock.js';

export type FaultKind = '502 html' | '500' | 'reset' | 'slow' | '429' | 'outage' | 'restart';

export interface FaultPlan {
  kind: FaultKind;
  /** Which requests the plan is about, e.g. `GET /tasks/browser-use/<id>/`. */
  match: (method: string, path: string) => boolean;
  /** Matching requests let through untouched before the fault starts. */
  skip?: number;
  /** Faulty answers in a row (Infinity: for ever). Outages and restarts happen once. */
  count?: number;
  /** For outages and restarts: how long the service is away, in fake milliseconds. */
  downMs?: number;
  /** For 'slow': real milliseconds before the answer; Infinity holds it until the client gives up. */
  delayMs?: number;
  /** For 429: the Retry-After header. */
  retryAfter?: string;
  /**
   * For outages: only the matching route is down (its requests are cut), the rest of the service
   * answers. Lets a test fail page 3 of a list for sure while pages in flight beside it succeed.
   */
  routeOnly?: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  fault?: FaultKind;
  /** It reached the service (which may have carried it out). */
  forwarded?: boolean;
}

export class FaultProxy {
  readonly seen: SeenRequest[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private downUntil?: number;
  private matched = 0;
  private faults = 0;
  private plan?: FaultPlan;
  private routeDownUntil?: number;

  constructor(
    private readonly target: URL,
    private readonly clock: FakeClock,
  ) {
    clock.onAdvance = () => this.reopenIfDue();
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}${this.target.pathname.replace(/\/$/, '')}`;
  }

  /** Requests with this method and a matching path that reached the service. */
  carriedOut(method: string, pattern: RegExp): number {
    return this.seen.filter((request) => request.forwarded && request.method === method && pattern.test(request.path)).length;
  }

  /** Arms a plan. An outage with nothing to skip starts at once: the service is down before the command runs. */
  async use(plan: FaultPlan | undefined): Promise<void> {
    this.plan = plan;
    this.matched = 0;
    this.faults = 0;
    this.routeDownUntil = undefined;
    if (plan?.kind === 'outage' && !plan.skip && !plan.routeOnly) {
      this.faults = 1;
      await this.goDown(plan.downMs ?? 60_000);
    }
  }

  async start(): Promise<void> {
    await this.listen();
  }

  async close(): Promise<void> {
    this.clock.onAdvance = undefined;
    await this.shut();
  }

  private async listen(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private async shut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async goDown(downMs: number): Promise<void> {
    this.downUntil = this.clock.now() + downMs;
    await this.shut();
  }

  private async reopenIfDue(): Promise<void> {
    if (this.downUntil !== undefined && this.clock.now() >= this.downUntil && !this.server) {
      this.downUntil = undefined;
      await this.listen();
    }
  }

  /** The fault for this request, if the plan has one left. */
  private pick(method: string, path: string): FaultPlan | undefined {
    const plan = this.plan;
    if (!plan?.match(method, path)) return undefined;
    if (plan.routeOnly) {
      this.routeDownUntil ??= this.clock.now() + (plan.downMs ?? 60_000);
      return this.clock.now() < this.routeDownUntil ? plan : undefined;
    }
    this.matched++;
    if (this.matched <= (plan.skip ?? 0)) return undefined;
    if (this.faults >= this.limit(plan)) return undefined;
    this.faults++;
    return plan;
  }

  private limit(plan: FaultPlan): number {
    return plan.kind === 'outage' || plan.kind === 'restart' ? 1 : (plan.count ?? 2);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://proxy');
    const path = url.pathname.slice(this.target.pathname.replace(/\/$/, '').length);
    const plan = this.pick(method, path + url.search);
    const seen: SeenRequest = { method, path: path + url.search, fault: plan?.kind };
    this.seen.push(seen);
    const forward = (answer: ServerResponse | undefined, delayMs = 0) => {
      seen.forwarded = true;
      return this.forward(req, body, answer, delayMs);
    };
    if (plan?.routeOnly) return void req.socket.destroy();
    switch (plan?.kind) {
      case undefined:
        return forward(res);
      case '502 html':
        res.writeHead(502, { 'content-type': 'text/html' });
        return void res.end('<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>');
      case '500':
        res.writeHead(500, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ detail: 'Internal server error.', error_id: '00000000-0000-4000-8000-000000000000' }));
      case '429':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': plan.retryAfter ?? '2' });
        return void res.end(JSON.stringify({ detail: 'Request was throttled.' }));
      case 'reset': {
        // The service did the work; the answer is lost on the way back.
        await forward(undefined);
        return void req.socket.destroy();
      }
      case 'slow':
        return forward(res, plan.delayMs ?? 300);
      case 'outage':
        // This request is answered; the service is gone right after it, so the next one is refused.
        seen.fault = undefined;
        await forward(res);
        return this.goDown(plan.downMs ?? 60_000);
      case 'restart':
        // The process dies with this request in flight (not carried out), and is back shortly.
        req.socket.destroy();
        return this.goDown(plan.downMs ?? 1_000);
    }
  }

  /** Sends the request on to the emulator; answers `res` (after `delayMs`) when given. */
  private forward(req: IncomingMessage, body: Buffer, res: ServerResponse | undefined, delayMs = 0): Promise<void> {
    return new Promise((resolve) => {
      const upstream = httpRequest(
        new URL(req.url ?? '/', this.target.origin),
        // The Host header is kept, so the service's links point at the proxy, as behind a real gateway.
        { method: req.method, headers: req.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            if (!res) return resolve();
            const send = () => {
              if (!res.socket || res.socket.destroyed) return resolve();
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(parts));
              resolve();
            };
            if (delayMs === Infinity) res.once('close', () => resolve()); // never answered: the client's time limit ends it, however busy the machine
            else if (delayMs > 0) setTimeout(send, delayMs);
            else send();
          });
        },
      );
      upstream.on('error', () => {
        res?.destroy();
        resolve();
      });
      upstream.end(body);
    });
  }
}
