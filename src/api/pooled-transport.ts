// How a batch sends its thousands of requests: undici's connection pool. Beside node:http (what a
// single command uses: it costs nothing to load) undici spends ~30 us less CPU per request of a
// batch, which is what bounds a batch's throughput on a small machine; loading it costs ~35 ms once
// (docs/performance.md, "Batch runs"). The same contract as HttpTransport: one timer for the whole
// exchange, an abort signal, the largest body read, and errors whose codes tell the retry policy
// whether a request can have been sent.
import type { Dispatcher, Pool } from 'undici';
import { BodyTooLargeError, HttpTransport, brokeAfterConnecting, timeoutError, type HttpResponse, type SendOptions, type Transport } from './transport.js';

export class PooledTransport implements Transport {
  private readonly pools = new Map<string, Pool>();
  private loading?: Promise<typeof import('./undici-pool.js')>;
  /** URLs with credentials in them go the way node:http sends them (a pool's origin has none). */
  private plain?: HttpTransport;

  /** `connections`: the most kept open to one origin (a batch's --concurrency). */
  constructor(private readonly connections: number) {}

  async send(url: URL, options: SendOptions): Promise<HttpResponse> {
    if (url.username !== '' || url.password !== '') return (this.plain ??= new HttpTransport()).send(url, options);
    const pool = this.pools.get(url.origin) ?? (await this.open(url.origin));
    return new Promise((resolve, reject) => {
      const exchange = new Exchange(options, resolve, reject);
      if (exchange.settled) return;
      pool.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: options.method as Dispatcher.HttpMethod, headers: options.headers, body: options.body }, exchange);
    });
  }

  /** Closes every connection (requests in flight fail). */
  close(): void {
    for (const pool of this.pools.values()) void pool.destroy().catch(() => undefined);
    this.pools.clear();
    this.plain?.close();
  }

  private async open(origin: string): Promise<Pool> {
    const { openPool } = await (this.loading ??= import('./undici-pool.js'));
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = openPool(origin, this.connections);
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

/** One request's life in the pool: its timer, its abort, its answer. */
class Exchange implements Dispatcher.DispatchHandler {
  settled = false;
  private controller?: Dispatcher.DispatchController;
  private readonly timer: NodeJS.Timeout;
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  /** The body's length as the answer declared it (Content-Length), when it did. */
  private declared?: number;
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private readonly limit: number;

  constructor(
    private readonly options: SendOptions,
    private readonly resolve: (response: HttpResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.limit = options.maxBodyBytes ?? Infinity;
    this.timer = setTimeout(() => this.timedOut(), options.timeoutMs);
    if (options.signal?.aborted) this.finish(options.signal.reason);
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) return controller.abort(new Error('the exchange ended before it was sent'));
    // The wait for a free connection (more requests than connections: the MCP server's calls) is
    // not the exchange's: node:http sends at once, and a create cut off after it went out reads as
    // maybe carried out. The timer bounds that wait (as a connect timeout), then the exchange anew.
    this.timer.refresh();
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[]>): void {
    this.status = statusCode;
    this.headers = headers;
    const length = headers['content-length'];
    this.declared = typeof length === 'string' ? Number(length) : undefined;
    if (this.declared !== undefined && this.declared > this.limit) this.finish(new BodyTooLargeError(this.limit, this.declared, statusCode));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > this.limit) this.finish(new BodyTooLargeError(this.limit, this.declared, this.status));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.finish(undefined, new PooledAnswer(this.status, this.headers, Buffer.concat(this.chunks).toString('utf8')));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // Started means its connection was made and it was being written.
    this.finish(this.controller ? brokeAfterConnecting(error) : error);
  }

  private readonly onAbort = (): void => this.finish(this.options.signal?.reason);

  private timedOut(): void {
    // undici starts a request just before writing it: one not started was never sent (queued, or
    // its connection not made), so even a create may be tried again, as after a connect timeout.
    const { timeoutMs } = this.options;
    this.finish(
      this.controller
        ? timeoutError('TimeoutError', `no complete answer within ${timeoutMs} ms`)
        : timeoutError('ConnectTimeoutError', `no connection within ${timeoutMs} ms`, 'UND_ERR_CONNECT_TIMEOUT'),
    );
  }

  private finish(error: unknown, response?: HttpResponse): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    if (response) return this.resolve(response);
    this.controller?.abort(error as Error);
    this.reject(error);
  }
}

class PooledAnswer implements HttpResponse {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[]>,
    readonly text: string,
  ) {}
}
