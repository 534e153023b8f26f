import { EndlessGuard } from '../api/pagination.js';
import type { Page } from '../api/schemas/common.js';

/** Where one page of a list comes from, and the filter the service lacks (applied here). */
export interface PageSource<T> {
  page: (request: { page?: number; pageSize?: number; signal?: AbortSignal }) => Promise<Page<T>>;
  filter?: (item: T) => boolean;
}

/**
 * Pages one filtered read goes through at most: a filter that matches little (or a service whose
 * pages never end) would otherwise keep one call reading for ever. The answer then says where to
 * read on (`--page`, `page`), as for any page with more after it.
 */
export const FILTERED_PAGES = 100;

/**
 * One page of a list, with a client-side filter applied. A filter on one page could keep nothing
 * while matches sit further on, so pages are read on until a page's worth matches, the list ends,
 * or FILTERED_PAGES were read. Pages past what the list's `count` allows, empty pages that link on
 * and pages that repeat an earlier one end the read (EndlessListError), as they end `--all`.
 * `signal` goes with every request: a cancelled call stops at once.
 */
export async function readPage<T>(
  source: PageSource<T>,
  options: { page?: number; pageSize?: number; signal?: AbortSignal },
): Promise<{ items: T[]; page: Page<T>; current: number }> {
  const keep = source.filter ?? (() => true);
  const fetch = (number: number) => source.page({ page: number, pageSize: options.pageSize, signal: options.signal });
  const first = options.page ?? 1;
  let current = first;
  let page = await fetch(current);
  const items = page.results.filter(keep);
  if (source.filter) {
    const wanted = options.pageSize ?? page.results.length;
    const guard = new EndlessGuard(first);
    guard.read(page);
    while (items.length < wanted && page.next && current - first + 1 < FILTERED_PAGES) {
      guard.ahead();
      current++;
      page = await fetch(current);
      guard.read(page);
      items.push(...page.results.filter(keep));
    }
  }
  return { items, page, current };
}
