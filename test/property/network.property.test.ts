// Properties of the parsers that read server text: Retry-After, URLs and next links, the retry
// schedule and the wait's polling schedule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_CEILING_MS, backoffDelayMs, mayRepeat, parseRetryAfter, retryDelayMs } from '../../src/api/retry.js';
import { apiBase, resolveApiPath, resolveLink } from '../../src/api/url.js';
import { DEFAULT_MAX_INTERVAL_MS, FIRST_POLL_DELAY_MS, pollDelayMs } from '../../src/api/wait.js';
import { apiPath, foreignReference, hostileText } from '../helpers/arbitraries.js';

const NOW = Date.parse('2026-05-01T08:00:00Z');

describe('Retry-After', () => {
  it('any text gives a delay within 0..one day, or nothing; never NaN', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const ms = parseRetryAfter(text, NOW);
        if (ms !== undefined) expect(ms >= 0 && ms <= RETRY_AFTER_CEILING_MS && Number.isInteger(ms)).toBe(true);
      }),
    );
  });

  it('delta seconds are read exactly, surrounding space allowed', () => {
    fc.assert(
      fc.property(fc.nat({ max: 86_400 }), fc.constantFrom('', ' ', '\t'), (seconds, pad) => {
        expect(parseRetryAfter(`${pad}${seconds}${pad}`, NOW)).toBe(seconds * 1000);
      }),
    );
  });

  it('an HTTP date is read to the second, a past one as 0', () => {
    fc.assert(
      fc.property(fc.integer({ min: -86_400, max: 86_400 }), (offset) => {
        const header = new Date(NOW + offset * 1000).toUTCString();
        expect(parseRetryAfter(header, NOW)).toBe(Math.max(0, offset * 1000));
      }),
    );
  });

  it('numbers that are not delta seconds (negative, signed, hex, exponent) are not read', () => {
    fc.assert(
      fc.property(fc.constantFrom('-', '+', '0x', '1e', '.', '1,', 'Infinity', 'NaN'), fc.nat(), (prefix, n) => {
        expect(parseRetryAfter(`${prefix}${n}`, NOW)).toBeUndefined();
      }),
    );
  });
});

describe('backoff', () => {
  it('stays between half and all of the capped exponential, and Retry-After is a floor', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 60 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.nat({ max: 600_000 }), { nil: undefined }),
        (attempt, base, max, random, retryAfter) => {
          const policy = { baseDelayMs: base, maxDelayMs: max };
          const cap = Math.min(max, base * 2 ** attempt);
          const delay = backoffDelayMs(attempt, policy, () => random);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(cap / 2));
          expect(delay).toBeLessThanOrEqual(Math.ceil(cap));
          expect(retryDelayMs(attempt, policy, retryAfter, () => random)).toBe(Math.max(retryAfter ?? 0, delay));
        },
      ),
    );
  });

  it('never repeats a POST that may have reached the service, whatever failed', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 400, max: 599 }).map((status) => ({ status })), fc.constantFrom('ECONNRESET', 'EPIPE', 'TimeoutError', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT').map((code) => ({ code }))),
        (failure) => {
          const repeat = mayRepeat('POST', failure);
          expect(repeat).toBe('status' in failure && failure.status === 429);
        },
      ),
    );
  });
});

describe('URL resolution', () => {
  const bases = fc.constantFrom('http://127.0.0.1:8787/api/v1', 'https://api.example.com/api/v1/', 'http://[::1]:8787/v1', 'https://api.example.com');

  it('whatever the text, a resolved URL is on the base origin', () => {
    fc.assert(
      fc.property(bases, fc.oneof(hostileText, foreignReference, apiPath), (baseUrl, input) => {
        const base = apiBase(baseUrl);
        const resolved = resolveApiPath(base, input);
        if (resolved.ok) expect(resolved.url.origin).toBe(base.origin);
        const link = resolveLink(base, input, new URL('tasks/?page=2', base));
        if (link.ok) expect(link.url.origin).toBe(base.origin);
      }),
    );
  });

  it('no spelling of another host reaches it, as a path or as a next link', () => {
    fc.assert(
      fc.property(bases, foreignReference, (baseUrl, input) => {
        const base = apiBase(baseUrl);
        // Refused, or (`https:/x` against an https base) read by the parser as a path on the base host.
        for (const resolved of [resolveApiPath(base, input), resolveLink(base, input)]) {
          if (resolved.ok) expect(resolved.url.host).toBe(base.host);
        }
        if (!input.toLowerCase().includes(base.protocol)) expect(resolveApiPath(base, input).ok).toBe(false);
      }),
    );
  });

  it('an API path lands below the base path with a trailing slash, its query kept', () => {
    fc.assert(
      fc.property(bases, apiPath, (baseUrl, path) => {
        const base = apiBase(baseUrl);
        const resolved = resolveApiPath(base, path);
        expect(resolved.ok).toBe(true);
        if (!resolved.ok) return;
        expect(resolved.url.pathname.startsWith(base.pathname)).toBe(true);
        expect(resolved.url.pathname.endsWith('/')).toBe(true);
        expect(resolved.url.search).toBe(path.includes('?') ? `?${path.split('?')[1]}` : '');
      }),
    );
  });
});

describe('polling schedule', () => {
  it('starts at 0.1 s, never shrinks, never passes the cap', () => {
    fc.assert(
      fc.property(fc.nat({ max: 3_600_000 }), fc.nat({ max: 3_600_000 }), fc.integer({ min: 50, max: 60_000 }), (a, b, cap) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        expect(pollDelayMs(early, cap)).toBeLessThanOrEqual(pollDelayMs(late, cap));
        expect(pollDelayMs(late, cap)).toBeLessThanOrEqual(cap);
        expect(pollDelayMs(0, DEFAULT_MAX_INTERVAL_MS)).toBe(FIRST_POLL_DELAY_MS);
      }),
    );
  });
});
