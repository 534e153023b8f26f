import { PAGE_LIMITS } from '../contract/limits.js';
import { HttpError } from './http.js';
import type { NewestFirst } from './newest-first.js';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** A page whose results are already JSON, as the JSON text of the whole page. */
export function pageJson(page: Page<string>): string {
  return `{"count":${page.count},"next":${JSON.stringify(page.next)},"previous":${JSON.stringify(page.previous)},"results":[${page.results.join(',')}]}`;
}

/** DRF's `page_size`: default 10, larger clamped to 100, anything but a positive integer falls back to 10. */
export function pageSize(raw: string | null): number {
  const { default: fallback, max } = PAGE_LIMITS.pageSize;
  if (raw === null || !/^\s*\+?\d+\s*$/.test(raw)) return fallback;
  const size = Number(raw);
  return size > 0 ? Math.min(size, max) : fallback;
}

/**
 * DRF page-number pagination over a newest-first index: a page is one slice, absolute next/previous
 * links, 404 "Invalid page." past the end or for a page that is not a positive integer ("last" is
 * the last page, as in DRF).
 */
export function paginate<T extends { seq: number }, R>(index: NewestFirst<T>, url: URL, render: (item: T) => R): Page<R> {
  const size = pageSize(url.searchParams.get('page_size'));
  const pages = Math.max(1, Math.ceil(index.size / size));
  const rawPage = url.searchParams.get('page');
  const page = rawPage === null || rawPage === '' ? 1 : rawPage === 'last' ? pages : /^\s*\+?\d+\s*$/.test(rawPage) ? Number(rawPage) : NaN;
  if (!Number.isInteger(page) || page < 1 || page > pages) throw new HttpError(404, { detail: 'Invalid page.' });
  const link = (target: number) => {
    const next = new URL(url.href);
    if (target === 1) next.searchParams.delete('page');
    else next.searchParams.set('page', String(target));
    return next.href;
  };
  return {
    count: index.size,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: index.slice((page - 1) * size, size).map(render),
  };
}
