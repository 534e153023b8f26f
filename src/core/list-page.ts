import type { Page } from '../api/schemas/common.js';

/** Where one page of a list comes from, and the filter the service lacks (applied here). */
export interface PageSource<T> {
  page: (request: { page?: number; pageSize?: number }) => Promise<Page<T>>;
  filter?: (item: T) => boolean;
}

/**
 * One page of a list, with a client-side filter applied. A filter on one page could keep nothing
 * while matches sit further on, so pages are read on until a page's worth matches or the list ends.
 */
export async function readPage<T>(source: PageSource<T>, options: { page?: number; pageSize?: number }): Promise<{ items: T[]; page: Page<T>; current: number }> {
  const keep = source.filter ?? (() => true);
  let current = options.page ?? 1;
  let page = await source.page({ page: current, pageSize: options.pageSize });
  const items = page.results.filter(keep);
  if (source.filter) {
    const wanted = options.pageSize ?? page.results.length;
    while (items.length < wanted && page.next) {
      current++;
      page = await source.page({ page: current, pageSize: options.pageSize });
      items.push(...page.results.filter(keep));
    }
  }
  return { items, page, current };
}
