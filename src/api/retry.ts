// The one retry policy of agentctl, for every HTTP request it sends: the API client and the webhook
// forwarder. Which failures are worth another try, which methods may repeat, how long to wait
// (exponential backoff with jitter, Retry-After honoured). Pure, so it is unit- and property-tested;
// the sleeping is the injected clock's (contract/clock.ts).

/** Methods whose repetition cannot create a second record. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Methods that change nothing (reads). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'TimeoutError',
]);

/** The request never left this machine (no connection was made), so even a create may be sent again. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export interface RetryPolicy {
  /** Further attempts after the first. */
  retries: number;
  /** The first backoff; doubles per attempt up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out inside one request: the caller decides. */
  maxRetryAfterMs: number;
}

/** ~0.25 + 0.5 + 1 + 2 s of backoff: rides out a restart or a burst of gateway errors. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 4, baseDelayMs: 250, maxDelayMs: 4000, maxRetryAfterMs: 120_000 };

/** What went wrong with one attempt: an HTTP status, or a network error code (undefined when unknown). */
export type Failure = { status: number } | { code: string | undefined };

/** A status that says "later" rather than "never": 5xx, 408 and 429. */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

export function isTransientNetworkCode(code: string | undefined): boolean {
  return code !== undefined && TRANSIENT_NETWORK_CODES.has(code);
}

/** True when a network failure happened before anything reached the service. */
export function neverSent(code: string | undefined): boolean {
  return code !== undefined && NEVER_SENT_CODES.has(code);
}

/**
 * May this failed request be sent again? Only transient failures, and only when repeating cannot
 * do the work twice: idempotent methods, a 429 (the service did nothing), a connection that was
 * never made, or a sender that declares its requests repeatable (the webhook forwarder: receivers
 * get at-least-once delivery).
 *
 * A 500 to a write is not transient: the service's own code failed on this request (the service
 * answers a rename onto a taken name with 500), so the same request fails the same way, and the
 * service, whose writes are not all in one transaction, may have done part of it. A read may try
 * again; a write is reported at once with how to check (a 502/503/504 comes from a gateway or a
 * restart and is still repeated for idempotent methods).
 */
export function mayRepeat(method: string, failure: Failure, options: { repeatable?: boolean } = {}): boolean {
  const verb = method.toUpperCase();
  if ('status' in failure) {
    if (!isTransientStatus(failure.status)) return false;
    if (failure.status === 429 || options.repeatable === true) return true;
    if (failure.status === 500 && !SAFE_METHODS.has(verb)) return false;
    return IDEMPOTENT_METHODS.has(verb);
  }
  if (!isTransientNetworkCode(failure.code)) return false;
  return neverSent(failure.code) || options.repeatable === true || IDEMPOTENT_METHODS.has(verb);
}

/** Exponential backoff with jitter: attempt 0 waits base/2..base, then 2x, 4x ... capped. */
export function backoffDelayMs(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** The wait before the next attempt: the backoff, but never less than what Retry-After asked for. */
export function retryDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  retryAfterMs: number | undefined,
  random = Math.random,
): number {
  return Math.max(retryAfterMs ?? 0, backoffDelayMs(attempt, policy, random));
}

const DELTA_SECONDS = /^\d+(?:\.\d+)?$/;
/** IMF-fixdate, RFC 850 and asctime, as RFC 9110 lists them; Date.parse alone takes far more. */
const HTTP_DATE =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** Longest Retry-After ever waited (a day): callers clamp to it, so sums stay finite. */
export const RETRY_AFTER_CEILING_MS = 24 * 3600 * 1000;

/**
 * Retry-After (delta seconds or an HTTP date) in milliseconds, as asked (not clamped: the caller
 * says what it will do about a wait of years); undefined when absent or unreadable. A date is
 * measured from the answer's own `Date` header when it has one (the service's clock, not ours), else
 * from `now`. Takes an array (a repeated header) and uses the first.
 */
export function parseRetryAfter(
  value: string | readonly string[] | null | undefined,
  now = Date.now(),
  dateHeader?: string,
): number | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first !== 'string') return undefined;
  const trimmed = first.trim();
  if (DELTA_SECONDS.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = httpDate(trimmed);
  if (date === undefined) return undefined;
  return Math.max(0, date - (httpDate(dateHeader?.trim()) ?? now));
}

function httpDate(text: string | undefined): number | undefined {
  if (text === undefined || !HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}
