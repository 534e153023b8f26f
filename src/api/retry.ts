/** When and how long to wait before trying a request again. Pure, so it is unit-tested. */

export const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRYABLE_STATUSES = new Set([502, 503, 504]);
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'TimeoutError',
]);
/** The request never reached the service, so even a create may be sent again. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

export const MAX_RETRY_AFTER_SECONDS = 120;

export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 8000 };

/** Retry a status? 429 for any method (the service did nothing); gateway errors only when safe. */
export function shouldRetryStatus(method: string, status: number): boolean {
  if (status === 429) return true;
  return RETRYABLE_STATUSES.has(status) && IDEMPOTENT_METHODS.has(method);
}

/** Retry a failed connection? Only when repeating cannot create a second record. */
export function shouldRetryNetworkError(method: string, code: string | undefined): boolean {
  if (!code || !RETRYABLE_NETWORK_CODES.has(code)) return false;
  return IDEMPOTENT_METHODS.has(method) || NEVER_SENT_CODES.has(code);
}

/** Exponential backoff with jitter: base, 2x base, 4x base ... capped. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * Parses Retry-After (delta seconds or an HTTP date) into milliseconds; undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
