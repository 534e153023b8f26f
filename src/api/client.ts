import { setMaxListeners } from 'node:events';
import { ApiError, ClosedServiceError, MissingApiVersionError, NetworkError, RedirectError, ResponseShapeError, notJsonError } from './errors.js';
import { schemaOf, type Shape } from './schemas/shapes.js';
import { systemClock, type Clock } from '../contract/clock.js';
import { NEUTRAL_WORDS, type FaceWords } from './words.js';
import { redactBody, type Redactor } from './redact.js';
import { Cassette, CassetteError, type RecordedExchange } from './cassette.js';
import { PooledTransport } from './pooled-transport.js';
import { BodyTooLargeError, HttpTransport, type HttpResponse, type Transport } from './transport.js';
import { DEFAULT_RETRY_POLICY, IDEMPOTENT_METHODS, RETRY_AFTER_CEILING_MS, SAFE_METHODS, mayRepeat, neverSent, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry.js';
import { apiBase, refuseClearText, resolveApiPath } from './url.js';
import { UsageError } from '../errors.js';
import { LIMITS } from '../contract/validate.js';
import { closedServiceHost, isLoopbackHost } from '../contract/url.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per-request timeout. */
  timeoutMs: number;
  userAgent: string;
  redactor: Redactor;
  /** Receives verbose trace lines (already redacted). */
  trace?: (line: string) => void;
  /** Told of each retry (already redacted), without the cost of tracing every request: the MCP server's log messages. */
  onRetry?: (line: string) => void;
  retry?: RetryPolicy;
  /** Time and sleeping between attempts (a fake one in tests). */
  clock?: Clock;
  /** Aborts every request and retry pause of this client (Ctrl-C, SIGTERM). */
  signal?: AbortSignal;
  /**
   * Sends the key over plain http:// to a host that is not this machine; refused without
   * (InsecureHttpError, before any request). Loopback needs no permission.
   */
  allowInsecureHttp?: boolean;
  /** How the face allows it (`--insecure-http`, `allowInsecureHttp: true`): the refusal's hint. */
  howToAllowInsecureHttp?: string;
  /** True when baseUrl is the built-in default, to suggest starting the emulator. */
  usingDefaultBaseUrl?: boolean;
  /** The face's words for what to do next (its flags and commands); without, hints name neither (words.ts). */
  words?: FaceWords;
  /** The largest response body read, in bytes (DEFAULT_MAX_BODY_BYTES without). */
  maxBodyBytes?: number;
  /**
   * Sends through a pool of at most this many connections (undici: less CPU per request, ~35 ms more
   * for a run's first request): for a process's thousands of requests. Without, node:http, which a
   * single call pays nothing to load.
   */
  connections?: number;
  /**
   * Appends each request and its answer to this file as a cassette line (cassette.ts), secrets
   * taken out first. Without, nothing of the recording runs.
   */
  record?: string;
}

const MB = 1024 * 1024;
/**
 * Response bodies larger than this are refused as they stream in (a task's JSON is kilobytes); at
 * most --max-response's ceiling, so one body always fits a JavaScript string (~512 MB).
 */
const DEFAULT_MAX_BODY_BYTES = LIMITS.bodyMb * MB;

export interface RequestOptions<T> {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** What a successful answer must look like (SHAPES.task); unchecked without. */
  shape?: Shape<T>;
  timeoutMs?: number;
  /** Extra abort reason, e.g. Ctrl-C. */
  signal?: AbortSignal;
  /** Overrides the policy's retries (a wait retries on its own schedule, so its polls take 0). */
  retries?: number;
  /** Extra request headers (`agentctl api -H`); they never replace the API key or the JSON headers. */
  headers?: Record<string, string>;
  /**
   * A POST that changes nothing (a read-only tool of the service's MCP endpoint): retried like a GET.
   * Only for requests whose repetition cannot do anything twice.
   */
  readOnly?: boolean;
}

export interface ApiResponse<T> {
  readonly status: number;
  readonly data: T;
  readonly headers: Record<string, string | string[] | undefined>;
}

const RESOLVED_PATHS_KEPT = 256;

/** The one HTTP client of agentctl: base URL, X-Api-Key, timeouts, JSON in and out, retries. */
export class ApiClient {
  private readonly base: URL;
  private readonly retry: RetryPolicy;
  private readonly clock: Clock;
  private readonly transport: Transport;
  /**
   * Paths already resolved and checked: a batch or a wait sends the same few paths thousands of times.
   * A request without a query sends the URL kept here (nothing changes a request's URL once made).
   */
  private readonly resolved = new Map<string, URL>();
  /**
   * The client's signal joined with a caller's (or alone, for requests without one), made once per
   * caller's signal: a list's hundred page requests share one.
   */
  private readonly joined = new WeakMap<AbortSignal, AbortSignal>();
  /** Whether this client has ever reached the service (an answer, or a connection that broke): see nothingListens. */
  private reached = false;
  /** The closed hosted service's host the base URL is on, if it is: every request is refused before it is sent. */
  private readonly closedHost: string | undefined;
  /** Where exchanges are recorded (the record option); undefined, and never looked at further, when not recording. */
  private readonly cassette: Cassette | undefined;

  /** `transport`: the connections of the client this one is made from (tellingRetriesTo); new ones without. */
  constructor(
    private readonly options: ClientOptions,
    transport?: Transport,
    /** The cassette of the client this one is made from: one file opened once, whatever the clients made from it. */
    cassette?: Cassette,
  ) {
    this.base = apiBase(options.baseUrl);
    if (!options.allowInsecureHttp) refuseClearText(this.base, options.howToAllowInsecureHttp);
    this.closedHost = closedServiceHost(this.base.hostname);
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.clock = options.clock ?? systemClock;
    this.transport = transport ?? (options.connections === undefined ? new HttpTransport() : new PooledTransport(options.connections));
    this.cassette =
      options.record === undefined ? undefined : cassette?.file === options.record ? cassette : new Cassette(options.record, options.redactor, this.base.pathname).open();
  }

  /** The same client with some options changed (a batch's creates outlive Ctrl-C: `{ signal: undefined }`). */
  withOptions(overrides: Partial<ClientOptions>): ApiClient {
    return new ApiClient({ ...this.options, ...overrides }, undefined, overrides.baseUrl === undefined ? this.cassette : undefined);
  }

  /** One request's time limit, unless a request sets its own (a wait caps each poll by this and its deadline). */
  /** The hints' words of the face that made this client (words.ts). */
  get words(): FaceWords {
    return this.options.words ?? NEUTRAL_WORDS;
  }

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** `text` with the API key and every other known secret taken out (for errors built above this client). */
  redact(text: string): string {
    return this.options.redactor.redact(text);
  }

  /** A copy of parsed JSON with every known secret taken out of its texts. */
  redactValue(value: unknown): unknown {
    return this.options.redactor.redactValue(value);
  }

  /** Whether `value` is the API key this client sends (never handed out as a task secret, wherever it is found). */
  isApiKey(value: string): boolean {
    return this.options.apiKey !== undefined && this.options.apiKey !== '' && value === this.options.apiKey;
  }

  /**
   * The same client on the same connections, telling its retries to `onRetry` instead: each session
   * of `agentctl mcp --http` logs the retries of its own calls, not those of every session. Closing
   * the client it was made from closes its connections too.
   */
  tellingRetriesTo(onRetry: (line: string) => void): ApiClient {
    return new ApiClient({ ...this.options, onRetry }, this.transport, this.cassette);
  }

  get baseUrl(): string {
    return this.base.href.replace(/\/$/, '');
  }

  /**
   * The absolute URL for an API path (with the trailing slash the service needs) or for an absolute
   * URL on the base's origin. Anything resolving to another origin is refused, so the API key is
   * never sent to a host the user did not configure.
   */
  url(pathOrUrl: string, query?: RequestOptions<unknown>['query']): URL {
    const url = new URL(this.resolve(pathOrUrl));
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  private resolve(pathOrUrl: string): URL {
    let url = this.resolved.get(pathOrUrl);
    if (url === undefined) {
      const resolved = resolveApiPath(this.base, pathOrUrl);
      if (!resolved.ok) {
        throw new UsageError(`refusing to send the API key elsewhere: ${resolved.reason}`, `give a path below ${this.baseUrl}, e.g. /tasks/browser-use/`);
      }
      url = resolved.url;
      if (this.resolved.size >= RESOLVED_PATHS_KEPT) this.resolved.clear();
      this.resolved.set(pathOrUrl, url);
    }
    return url;
  }

  get<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request<T>('GET', path, options).then((r) => r.data);
  }
  post<T>(path: string, body: unknown, options: RequestOptions<T> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body }).then((r) => r.data);
  }
  put<T>(path: string, body: unknown, options: RequestOptions<T> = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body }).then((r) => r.data);
  }
  patch<T>(path: string, body: unknown, options: RequestOptions<T> = {}): Promise<T> {
    return this.request<T>('PATCH', path, { ...options, body }).then((r) => r.data);
  }
  delete(path: string, options: RequestOptions<unknown> = {}): Promise<unknown> {
    return this.request<unknown>('DELETE', path, options).then((r) => r.data);
  }

  /**
   * Sends one request, retrying what the retry policy allows (transient failures of requests that
   * may repeat), with backoff and the service's Retry-After. Aborting `options.signal` stops at once.
   */
  async request<T>(method: HttpMethod, pathOrUrl: string, requestOptions: RequestOptions<T> = {}): Promise<ApiResponse<T>> {
    if (this.closedHost !== undefined) throw new ClosedServiceError(this.baseUrl, this.closedHost);
    const url = requestOptions.query === undefined ? this.resolve(pathOrUrl) : this.url(pathOrUrl, requestOptions.query);
    const own = this.options.signal;
    const given = requestOptions.signal;
    const options = own === undefined ? requestOptions : { ...requestOptions, signal: this.join(own, given) };
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(method, url, options);
      if (outcome.kind === 'response') {
        const { response, body } = outcome;
        const { status } = response;
        if (status < 300) {
          // The generated predicate says yes for almost every body; zod loads when it says no, to explain why.
          if (!options.shape || options.shape.accept?.(body)) return new Answer(response, body as T);
          if (typeof body === 'string') throw notJsonError(method, url.pathname, status, headerValue(response.headers['content-type']), body);
          return new Answer(response, await this.checkShape(body, options.shape, method, url));
        }
        const { headers } = response;
        if (MissingApiVersionError.applies(status, body, this.base)) throw new MissingApiVersionError(method, url.pathname, this.baseUrl, this.words);
        // What the error keeps of the answer is redacted now, not where it is shown: a service that
        // echoes the key back would else hand it to whoever logs or serializes the error.
        const { redactor } = this.options;
        const quoted = (text: string | undefined) => (text === undefined ? undefined : redactor.redact(text));
        // Never followed: the API key would go along to wherever the service points.
        if (status < 400) throw new RedirectError(status, quoted(headerValue(headers.location)), method, url, this.base, this.words);
        const asked = parseRetryAfter(headers['retry-after'], this.clock.now(), headerValue(headers.date));
        const retryAfterMs = asked === undefined ? undefined : Math.min(asked, RETRY_AFTER_CEILING_MS);
        const retryAfter = retryAfterMs === undefined ? undefined : { ms: retryAfterMs, at: this.clock.now(), askedMs: asked, header: quoted(headerValue(headers['retry-after'])) };
        // A gateway error on a create, or the service's own 500 on any write (not repeated, see
        // mayRepeat), does not say whether the service carried it out.
        const uncertain = status >= 500 && !options.readOnly && (!IDEMPOTENT_METHODS.has(method) || (status === 500 && !SAFE_METHODS.has(method)));
        const error = new ApiError(status, redactor.redactValue(body), method, url.href, retryAfter, uncertain ? this.checkHint(url) : undefined, this.words);
        const tooLong = retryAfterMs !== undefined && retryAfterMs > this.retry.maxRetryAfterMs;
        if (attempt >= (options.retries ?? this.retry.retries) || tooLong || !mayRepeat(method, { status }, { repeatable: options.readOnly })) throw error;
        await this.pause(retryDelayMs(attempt, this.retry, retryAfterMs), `${status}`, options.signal);
      } else {
        const { error, code } = outcome;
        if (code === 'AbortError') throw options.signal?.reason ?? error;
        if (error instanceof BodyTooLargeError) throw tooLargeError(error, method, url, this.words);
        if (attempt >= (options.retries ?? this.retry.retries) || !mayRepeat(method, { code }, { repeatable: options.readOnly }) || this.nothingListens(url, code)) {
          throw this.networkError(options.readOnly ? 'GET' : method, url, error, code, attempt + 1, this.nothingListens(url, code), method);
        }
        await this.pause(retryDelayMs(attempt, this.retry, undefined), code ?? 'network error', options.signal);
      }
    }
  }

  /**
   * A refused connection to this machine before this client ever reached the service: nothing is
   * running there (no emulator started yet), and no retry will change that, so it fails at once.
   * Once the service has been reached, a refusal is a restart and is retried like any other.
   */
  private nothingListens(url: URL, code: string | undefined): boolean {
    return code === 'ECONNREFUSED' && !this.reached && isLoopbackHost(url.hostname);
  }

  /**
   * A signal of ours that ends when the client's or the caller's does. Every request in flight
   * listens to it, so it allows any number of listeners; a caller's signal (a library user's, or the
   * client's own) must not collect one each: Node warns of a leak past 10, and a batch runs 16 at once.
   */
  private join(own: AbortSignal, given: AbortSignal | undefined): AbortSignal {
    const key = given ?? own;
    let joined = this.joined.get(key);
    if (!joined) {
      joined = AbortSignal.any(given && given !== own ? [own, given] : [own]);
      setMaxListeners(0, joined);
      this.joined.set(key, joined);
    }
    return joined;
  }

  private async attempt(
    method: HttpMethod,
    url: URL,
    options: RequestOptions<unknown>,
  ): Promise<
    | { kind: 'response'; response: HttpResponse; body: unknown }
    | { kind: 'error'; error: unknown; code: string | undefined }
  > {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const headers: Record<string, string> = {
      ...options.headers,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    this.traceRequest(method, url, headers, options.body);
    const started = Date.now();
    try {
      const response = await this.transport.send(url, {
        method,
        headers,
        body: payload,
        timeoutMs,
        signal: options.signal,
        maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      });
      this.reached = true;
      const text = response.text;
      const body = parseBody(text, response);
      if (this.cassette) this.record(method, url, headers, options.body, started, { status: response.status, headers: response.headers, body, text: typeof body === 'object' && body !== null ? text : undefined });
      if (this.options.trace) {
        this.trace(`< ${response.status} ${method} ${url.href} (${Date.now() - started} ms)`);
        if (text) this.trace(`< ${truncate(text, 2000)}`);
      }
      return { kind: 'response', response, body };
    } catch (error) {
      if (error instanceof CassetteError) throw error;
      const code = errorCode(error, options.signal);
      // A reset or a timeout means something was there (a restart, a slow service): not "nothing listens".
      if (!neverSent(code)) this.reached = true;
      if (this.cassette) this.record(method, url, headers, options.body, started, undefined, code ?? describe(error));
      if (this.options.trace) this.trace(`< ${method} ${url.href} failed: ${code ?? String(error)}`);
      return { kind: 'error', error, code };
    }
  }

  /** Drops kept-alive connections (idle ones never hold the process open anyway). */
  close(): void {
    this.transport.close();
    this.cassette?.close();
  }

  private async checkShape<T>(body: unknown, shape: Shape<T>, method: string, url: URL): Promise<T> {
    const parsed = (await schemaOf(shape)).safeParse(body);
    if (parsed.success) return body as T; // keep the record exactly as the service sent it
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
      .join('; ');
    throw new ResponseShapeError(`unexpected response from ${method} ${url.pathname}: ${problems}`);
  }

  /** `kind`: the method as the retry rules read it (a read-only POST reads as a GET); `method` as sent. */
  private networkError(kind: string, url: URL, error: unknown, code: string | undefined, attempts: number, nothingListens: boolean, method = kind): NetworkError {
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    const isTimeout = code === 'TimeoutError' || code?.includes('TIMEOUT');
    // A create whose connection broke after it was sent may have been carried out: say so, and how to look.
    const uncertain = !IDEMPOTENT_METHODS.has(kind) && !neverSent(code);
    const where = `${method} ${url.origin}${url.pathname}`;
    const what = isTimeout
      ? `${where} timed out`
      : uncertain
        ? `the connection broke during ${where}: ${code ?? describe(error)}`
        : `cannot reach ${url.origin}: ${code ?? describe(error)}`;
    let hint: string | undefined;
    if (code === 'ECONNREFUSED' && this.options.usingDefaultBaseUrl && this.words.nothingAtDefault) {
      hint = this.words.nothingAtDefault;
    } else if (uncertain) {
      hint = this.checkHint(url);
    } else if (isTimeout) {
      hint = this.words.timeout;
    }
    return new NetworkError(this.options.redactor.redact(what + tries), hint, error, uncertain, nothingListens, Boolean(isTimeout));
  }

  /** What to do after a create (or another POST) whose outcome is unknown. */
  private checkHint(url: URL): string {
    return `the request may still have been carried out; check before sending it again: ${this.words.checkWrite(url.pathname.slice(this.base.pathname.length - 1))}`;
  }

  private async pause(ms: number, reason: string, signal?: AbortSignal): Promise<void> {
    this.trace(`retrying after ${reason} in ${ms} ms`);
    this.options.onRetry?.(this.options.redactor.redact(`retrying after ${reason} in ${ms} ms`));
    await this.clock.sleep(ms, signal);
  }

  /** One exchange into the cassette: begun at `started` (Date.now()), answered or failed now. */
  private record(method: string, url: URL, headers: Record<string, string>, body: unknown, started: number, answer?: RecordedExchange['answer'], error?: string): void {
    const ms = Date.now() - started;
    this.cassette?.record({ method, url, headers, body, startedAt: this.clock.now() - ms, ms, answer, error });
  }

  private traceRequest(method: string, url: URL, headers: Record<string, string>, body: unknown): void {
    if (!this.options.trace) return;
    this.trace(`> ${method} ${url.href}`);
    for (const [name, value] of Object.entries(headers)) {
      this.trace(`> ${name}: ${name === 'x-api-key' ? '***' : value}`);
    }
    if (body !== undefined) this.trace(`> ${truncate(JSON.stringify(redactBody(body)), 2000)}`);
  }

  private trace(line: string): void {
    this.options.trace?.(this.options.redactor.redact(line));
  }
}

/**
 * A successful answer; its headers are parsed only if the caller reads them (a class: an object
 * literal with a getter is slow to make). Spread it and `headers` stays behind: read its fields.
 */
class Answer<T> implements ApiResponse<T> {
  readonly #response: HttpResponse;

  constructor(
    response: HttpResponse,
    readonly data: T,
  ) {
    this.#response = response;
  }

  get status(): number {
    return this.#response.status;
  }

  get headers(): Record<string, string | string[] | undefined> {
    return this.#response.headers;
  }

  toJSON(): ApiResponse<T> {
    return { status: this.status, headers: this.headers, data: this.data };
  }
}

/** The body as JSON when it looks like JSON or says it is (the content type is read only if the text does not tell). */
function parseBody(text: string, response: HttpResponse): unknown {
  if (text === '') return undefined;
  const looksJson = /^\s*[[{"]/.test(text) || headerValue(response.headers['content-type'])?.includes('json');
  if (!looksJson) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A body past the limit: what it was, and how to read it if it really is that big. */
function tooLargeError(error: BodyTooLargeError, method: string, url: URL, words: FaceWords): ResponseShapeError {
  const size = error.declared === undefined ? `more than ${formatMb(error.limit)}` : formatMb(error.declared);
  const hint = error.limit >= LIMITS.bodyMbCeiling * MB ? words.bodyAtCeiling(formatMb(error.limit)) : words.bodyTooLarge(LIMITS.bodyMbCeiling);
  return new ResponseShapeError(
    `${method} ${url.pathname} answered ${error.status} with a body of ${size}, over the ${formatMb(error.limit)} agentctl reads: it stopped reading`,
    hint,
  );
}

function formatMb(bytes: number): string {
  return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function errorCode(error: unknown, userSignal?: AbortSignal): string | undefined {
  if (userSignal?.aborted) return 'AbortError';
  if (!(error instanceof Error)) return undefined;
  // Only our own timeout signal is left to abort a request once the user's signal is ruled out.
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'TimeoutError';
  const withCode = error as Error & { code?: string; cause?: { code?: string } };
  return withCode.code ?? withCode.cause?.code;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}
