import { describe, expect, it } from 'vitest';
import { backoffDelayMs, mayRepeat, parseRetryAfter, retryDelayMs } from '../../src/api/retry.js';

describe('retry rules', () => {
  it('repeats 429 for every method, other transient statuses only for safe methods', () => {
    expect(mayRepeat('POST', { status: 429 })).toBe(true);
    expect(mayRepeat('GET', { status: 503 })).toBe(true);
    expect(mayRepeat('GET', { status: 500 })).toBe(true);
    expect(mayRepeat('DELETE', { status: 502 })).toBe(true);
    expect(mayRepeat('POST', { status: 503 })).toBe(false);
    expect(mayRepeat('PATCH', { status: 504 })).toBe(false);
    expect(mayRepeat('GET', { status: 404 })).toBe(false);
    expect(mayRepeat('GET', { status: 400 })).toBe(false);
  });

  it('never repeats a write the service answered 500: its own code failed on it (a rename onto a taken name), repetition fails the same', () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) expect(mayRepeat(method, { status: 500 }), method).toBe(false);
    expect(mayRepeat('GET', { status: 500 })).toBe(true);
    // A gateway's or a proxy's answer is another matter: the request may never have reached the service.
    expect(mayRepeat('PUT', { status: 502 })).toBe(true);
    expect(mayRepeat('DELETE', { status: 503 })).toBe(true);
  });

  it('never re-sends a create that may have reached the service', () => {
    expect(mayRepeat('POST', { code: 'ECONNRESET' })).toBe(false);
    expect(mayRepeat('POST', { code: 'TimeoutError' })).toBe(false);
    expect(mayRepeat('POST', { code: 'ECONNREFUSED' })).toBe(true);
    expect(mayRepeat('GET', { code: 'ECONNRESET' })).toBe(true);
    expect(mayRepeat('PUT', { code: 'UND_ERR_SOCKET' })).toBe(true);
    expect(mayRepeat('GET', { code: 'ENOTFOUND' })).toBe(false);
    expect(mayRepeat('GET', { code: undefined })).toBe(false);
  });

  it('lets a sender declare its POSTs repeatable (the webhook forwarder), still not a 4xx', () => {
    expect(mayRepeat('POST', { status: 503 }, { repeatable: true })).toBe(true);
    expect(mayRepeat('POST', { code: 'ECONNRESET' }, { repeatable: true })).toBe(true);
    expect(mayRepeat('POST', { status: 408 }, { repeatable: true })).toBe(true);
    expect(mayRepeat('POST', { status: 422 }, { repeatable: true })).toBe(false);
  });

  it('backs off exponentially with jitter and a cap', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelayMs(0, policy, () => 0)).toBe(50);
    expect(backoffDelayMs(0, policy, () => 1)).toBe(100);
    expect(backoffDelayMs(2, policy, () => 1)).toBe(400);
    expect(backoffDelayMs(10, policy, () => 1)).toBe(1000);
  });

  it('never waits less than Retry-After asks', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelayMs(0, policy, 5000, () => 1)).toBe(5000);
    expect(retryDelayMs(3, policy, 10, () => 1)).toBe(800);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', Date.parse('Sun, 06 Nov 1994 08:49:00 GMT'))).toBe(37_000);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', Date.parse('Sun, 06 Nov 1994 08:49:00 GMT'))).toBe(37_000);
    expect(parseRetryAfter(['7', '9'])).toBe(7000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-5')).toBeUndefined();
    expect(parseRetryAfter('1 2')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('reads a date in the past as "now" and leaves absurd values as asked (callers clamp and say so)', () => {
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT', 1_000)).toBe(0);
    expect(parseRetryAfter('100000000000000000000')).toBe(1e23);
  });

  it('measures a date from the answer\'s own Date header, whatever the local clock says', () => {
    const local = Date.parse('Wed, 21 Oct 2026 08:00:00 GMT');
    // The service's clock is an hour ahead (or behind) of ours: it still asks for 3 s.
    expect(parseRetryAfter('Wed, 21 Oct 2026 09:00:03 GMT', local, 'Wed, 21 Oct 2026 09:00:00 GMT')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:00:03 GMT', local, 'Wed, 21 Oct 2026 07:00:00 GMT')).toBe(3000);
    // An unreadable Date falls back to the local clock.
    expect(parseRetryAfter('Wed, 21 Oct 2026 08:00:03 GMT', local, 'yesterday')).toBe(3000);
  });
});
