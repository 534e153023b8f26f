import { request as undiciRequest, type Dispatcher } from 'undici';
import type { ZodType } from 'zod';
import { ApiError, NetworkError, ResponseShapeError } from './errors.js';
import { redactBody, type Redactor } from './redact.js';
import {
  DEFAULT_RETRY_POLICY,
  MAX_RETRY_AFTER_SECONDS,
  backoffDelayMs,
  parseRetryAfter,
  shouldRetryNetworkError,
  shouldRetryStatus,
  type RetryPolicy,
} from './retry.js';

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
  retry?: RetryPolicy;
  /** True when baseUrl is the built-in default, to suggest starting the emulator. */
  usingDefaultBaseUrl?: boolean;
}

export interface RequestOptions<T> {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  schema?: ZodType<T>;
  timeoutMs?: number;
  /** Extra abort reason, e.g. Ctrl-C. */
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string | string[] | undefined>;
}

/** The one HTTP client of agentctl: base URL, X-Api-Key, timeouts, JSON in and out, retries. */
export class ApiClient {
  private readonly base: URL;
  private readonly retry: RetryPolicy;

  constructor(private readonly options: ClientOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
  }

  /** The same client with another retry policy (a batch handles 429s and repeats creates itself). */
  withRetry(retry: RetryPolicy): ApiClient {
    return new ApiClient({ ...this.options, retry });
  }

  get baseUrl(): string {
    return this.base.href.replace(/\/$/, '');
  }

  /**
   * Builds the absolute URL for an API path (always with the trailing slash the service needs),
   * or accepts an absolute URL on the same origin (pagination links). Other origins are refused so
   * the API key is never sent to a host the user did not configure.
   */
  url(pathOrUrl: string, query?: RequestOptions<unknown>['query']): URL {
    let url: URL;
    if (/^https?:\/\//i.test(pathOrUrl)) {
      url = new URL(pathOrUrl);
      if (url.origin !== this.base.origin) {
        throw new ResponseShapeError(`refusing to follow a link to another host: ${url.origin}`);
      }
    } else {
      const [rawPath = '', rawQuery] = pathOrUrl.split('?', 2);
      const path = rawPath.replace(/^\/+/, '');
      url = new URL(path.endsWith('/') || path === '' ? path : `${path}/`, this.base);
      if (rawQuery) url.search = rawQuery;
    }
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
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

  async request<T>(method: HttpMethod, pathOrUrl: string, options: RequestOptions<T> = {}): Promise<ApiResponse<T>> {
    const url = this.url(pathOrUrl, options.query);
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(method, url, options);
      if (outcome.kind === 'response') {
        const { status, headers, body } = outcome;
        if (status < 400) return { status, headers, data: this.checkShape(body, options.schema, method, url) };
        const error = new ApiError(status, body, method, url.href);
        if (attempt >= this.retry.retries || !shouldRetryStatus(method, status)) throw error;
        const retryAfter = parseRetryAfter(headerValue(headers['retry-after']));
        if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_SECONDS * 1000) throw error;
        await this.pause(retryAfter ?? backoffDelayMs(attempt, this.retry), `${status}`, options.signal);
      } else {
        const { error, code } = outcome;
        if (code === 'AbortError') throw error;
        if (attempt >= this.retry.retries || !shouldRetryNetworkError(method, code)) {
          throw this.networkError(method, url, error, code, attempt + 1);
        }
        await this.pause(backoffDelayMs(attempt, this.retry), code ?? 'network error', options.signal);
      }
    }
  }

  private async attempt(
    method: HttpMethod,
    url: URL,
    options: RequestOptions<unknown>,
  ): Promise<
    | { kind: 'response'; status: number; headers: Record<string, string | string[] | undefined>; body: unknown }
    | { kind: 'error'; error: unknown; code: string | undefined }
  > {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const headers: Record<string, string> = {
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
    // AbortSignal.any costs tens of µs per request: only combine when there is a second signal.
    const timeout = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    try {
      const response: Dispatcher.ResponseData = await undiciRequest(url, {
        method,
        headers,
        body: payload,
        signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await response.body.text();
      const body = parseBody(text, headerValue(response.headers['content-type']));
      this.trace(`< ${response.statusCode} ${method} ${url.href} (${Math.round(performance.now() - started)} ms)`);
      if (text) this.trace(`< ${truncate(text, 2000)}`);
      return { kind: 'response', status: response.statusCode, headers: response.headers, body };
    } catch (error) {
      const code = errorCode(error, options.signal);
      this.trace(`< ${method} ${url.href} failed: ${code ?? String(error)}`);
      return { kind: 'error', error, code };
    }
  }

  private checkShape<T>(body: unknown, schema: ZodType<T> | undefined, method: string, url: URL): T {
    if (!schema) return body as T;
    const parsed = schema.safeParse(body);
    if (parsed.success) return body as T; // keep the record exactly as the service sent it
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
      .join('; ');
    throw new ResponseShapeError(`unexpected response from ${method} ${url.pathname}: ${problems}`);
  }

  private networkError(method: string, url: URL, error: unknown, code: string | undefined, attempts: number): NetworkError {
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    const isTimeout = code === 'TimeoutError' || code?.includes('TIMEOUT');
    const what = isTimeout
      ? `${method} ${url.origin}${url.pathname} timed out`
      : `cannot reach ${url.origin}: ${code ?? (error instanceof Error ? error.message : String(error))}`;
    let hint: string | undefined;
    if (code === 'ECONNREFUSED' && this.options.usingDefaultBaseUrl) {
      hint = 'nothing is listening at the default address: start `agentctl emulator` in another terminal, or set a base URL with --base-url, AGENTCTL_BASE_URL or `agentctl auth login --base-url URL`';
    } else if (isTimeout && method === 'POST') {
      hint = 'the request may still have been carried out; check before sending it again (e.g. `agentctl tasks list`)';
    } else if (isTimeout) {
      hint = 'raise the limit with --timeout SEC';
    }
    return new NetworkError(this.options.redactor.redact(what + tries), hint, error);
  }

  private async pause(ms: number, reason: string, signal?: AbortSignal): Promise<void> {
    this.trace(`retrying after ${reason} in ${ms} ms`);
    const { setTimeout: sleep } = await import('node:timers/promises');
    await sleep(ms, undefined, signal ? { signal } : undefined);
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

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  const looksJson = contentType?.includes('json') || /^\s*[[{"]/.test(text);
  if (!looksJson) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
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

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}
