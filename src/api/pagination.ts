import type { ZodType } from 'zod';
import type { ApiClient } from './client.js';
import { pageOf, type Page } from './schemas/common.js';

export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page?: number;
  pageSize?: number;
}

/** One page of a DRF-style list (`page`, `page_size`). */
export function fetchPage<T>(client: ApiClient, path: string, item: ZodType<T>, request: PageRequest = {}): Promise<Page<T>> {
  return client.get(path, {
    query: { page: request.page, page_size: request.pageSize },
    schema: pageOf(item) as unknown as ZodType<Page<T>>,
  });
}

/**
 * Every item of a list, page after page, as a stream: only one page is held in memory at a time.
 * Follows the service's absolute `next` links (same origin only; the client refuses others).
 */
export async function* iterateAll<T>(
  client: ApiClient,
  path: string,
  item: ZodType<T>,
  request: PageRequest = {},
): AsyncGenerator<T, void, undefined> {
  let page: Page<T> = await fetchPage(client, path, item, { page: request.page, pageSize: request.pageSize ?? MAX_PAGE_SIZE });
  for (;;) {
    yield* page.results;
    if (!page.next) return;
    page = await client.get(page.next, { schema: pageOf(item) as unknown as ZodType<Page<T>> });
  }
}
