import { describe, expect, it } from 'vitest';
import { backoffDelayMs, parseRetryAfter, shouldRetryNetworkError, shouldRetryStatus } from '../../src/api/retry.js';

describe('retry rules', () => {
  it('retries 429 for every method, gateway errors only for safe methods', () => {
    expect(shouldRetryStatus('POST', 429)).toBe(true);
    expect(shouldRetryStatus('GET', 503)).toBe(true);
    expect(shouldRetryStatus('DELETE', 502)).toBe(true);
    expect(shouldRetryStatus('POST', 503)).toBe(false);
    expect(shouldRetryStatus('PATCH', 504)).toBe(false);
    expect(shouldRetryStatus('GET', 500)).toBe(false);
    expect(shouldRetryStatus('GET', 404)).toBe(false);
  });

  it('never re-sends a create that may have reached the service', () => {
    expect(shouldRetryNetworkError('POST', 'ECONNRESET')).toBe(false);
    expect(shouldRetryNetworkError('POST', 'TimeoutError')).toBe(false);
    expect(shouldRetryNetworkError('POST', 'ECONNREFUSED')).toBe(true);
    expect(shouldRetryNetworkError('GET', 'ECONNRESET')).toBe(true);
    expect(shouldRetryNetworkError('PUT', 'UND_ERR_SOCKET')).toBe(true);
    expect(shouldRetryNetworkError('GET', 'ENOTFOUND')).toBe(false);
    expect(shouldRetryNetworkError('GET', undefined)).toBe(false);
  });

  it('backs off exponentially with jitter and a cap', () => {
    const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelayMs(0, policy, () => 0)).toBe(50);
    expect(backoffDelayMs(0, policy, () => 1)).toBe(100);
    expect(backoffDelayMs(2, policy, () => 1)).toBe(400);
    expect(backoffDelayMs(10, policy, () => 1)).toBe(1000);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
