// The pagination walker against lists of every size, page size and window, with answers arriving
// in any order: the items come out complete, in order, with a bounded number of pages in flight.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { PartialListError, walkPages } from '../../src/api/pagination.js';
import { apiBase, resolveApiPath } from '../../src/api/url.js';

const BASE = 'http://127.0.0.1:8787/api/v1';

/**
 * A service with `count` items numbered 0.. in DRF's envelope. Answers are held until `release`
 * lets them go in the scheduler's order, so pages complete out of order.
 */
function fakeService(count: number, scheduler: fc.Scheduler, failPage?: number) {
  const base = apiBase(BASE);
  let inFlight = 0;
  let maxInFlight = 0;
  let requests = 0;
  const client = {
    baseUrl: BASE,
    url: (path: string, query: Record<string, unknown> = {}) => {
      const resolved = resolveApiPath(base, path);
      if (!resolved.ok) throw new Error(resolved.reason);
      for (const [key, value] of Object.entries(query)) if (value !== undefined) resolved.url.searchParams.set(key, String(value));
      return resolved.url;
    },
    get: async (href: string) => {
      requests++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const url = new URL(href);
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 10);
      await scheduler.schedule(Promise.resolve(), `page ${page}`);
      inFlight--;
      if (page === failPage) throw new ApiError(500, { detail: 'Internal server error.' }, 'GET', href);
      const start = (page - 1) * size;
      if (page > 1 && start >= count) throw new ApiError(404, { detail: 'Invalid page.' }, 'GET', href);
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      const results = Array.from({ length: Math.max(0, Math.min(size, count - start)) }, (_, i) => start + i);
      return { count, next: start + size < count ? next.href : null, previous: null, results };
    },
  };
  return { client: client as unknown as ApiClient, stats: () => ({ maxInFlight, requests }) };
}

async function drain(pages: AsyncIterable<number[]>): Promise<number[]> {
  const seen: number[] = [];
  for await (const items of pages) seen.push(...items);
  return seen;
}

describe('walkPages', () => {
  it('yields every item once, in order, with at most `window` pages in flight', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 250 }), fc.integer({ min: 1, max: 25 }), fc.integer({ min: 1, max: 8 }), fc.scheduler(), async (count, pageSize, window, scheduler) => {
        const { client, stats } = fakeService(count, scheduler);
        const walk = drain(walkPages<number>(client, { path: '/tasks/browser-use/', pageSize, window }));
        const items = await scheduler.waitFor(walk);
        expect(items).toEqual(Array.from({ length: count }, (_, i) => i));
        expect(stats().maxInFlight).toBeLessThanOrEqual(window);
        expect(stats().requests).toBe(Math.max(1, Math.ceil(count / pageSize)));
      }),
      { numRuns: 150 },
    );
  });

  it('a page that fails ends the walk after exactly the items before it, saying which page', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 8 }), fc.nat(), fc.scheduler(), async (count, pageSize, window, pick, scheduler) => {
        const pages = Math.ceil(count / pageSize);
        const failPage = 1 + (pick % pages);
        const { client } = fakeService(count, scheduler, failPage);
        const seen: number[] = [];
        const walk = (async () => {
          for await (const items of walkPages<number>(client, { path: '/tasks/browser-use/', pageSize, window })) seen.push(...items);
        })();
        const error = await scheduler.waitFor(walk.then(() => undefined, (e: unknown) => e));
        expect(error).toBeInstanceOf(PartialListError);
        expect((error as PartialListError).failedPage).toBe(failPage);
        expect(seen).toEqual(Array.from({ length: (failPage - 1) * pageSize }, (_, i) => i));
      }),
      { numRuns: 150 },
    );
  });
});
