import { HttpError } from './http.js';

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

/**
 * DRF page-number pagination: `page` and `page_size` (default 10, larger clamped to 100, invalid
 * falls back to 10), absolute next/previous links, 404 "Invalid page." past the end.
 */
export function paginate<T>(items: T[], url: URL): { count: number; next: string | null; previous: string | null; results: T[] } {
  const rawSize = Number(url.searchParams.get('page_size'));
  const size = Number.isInteger(rawSize) && rawSize > 0 ? Math.min(rawSize, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  const rawPage = url.searchParams.get('page');
  const page = rawPage === null ? 1 : Number(rawPage);
  const pages = Math.max(1, Math.ceil(items.length / size));
  if (!Number.isInteger(page) || page < 1 || page > pages) throw new HttpError(404, { detail: 'Invalid page.' });
  const link = (target: number) => {
    const next = new URL(url.href);
    if (target === 1) next.searchParams.delete('page');
    else next.searchParams.set('page', String(target));
    return next.href;
  };
  return {
    count: items.length,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: items.slice((page - 1) * size, page * size),
  };
}
