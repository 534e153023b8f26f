import { PAGE_LIMITS } from '../contract/limits.js';
import { HttpError } from './http.js';
import type { NewestFirst } from './newest-first.js';
import { codePointOrder } from './python-json.js';

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
  // A repeated parameter counts by its last value, as a QueryDict reads it.
  const size = pageSize(url.searchParams.getAll('page_size').at(-1) ?? null);
  const pages = Math.max(1, Math.ceil(index.size / size));
  const rawPage = url.searchParams.getAll('page').at(-1) ?? null;
  const page = rawPage === null || rawPage === '' ? 1 : rawPage === 'last' ? pages : /^\s*\+?\d+\s*$/.test(rawPage) ? Number(rawPage) : NaN;
  if (!Number.isInteger(page) || page < 1 || page > pages) throw new HttpError(404, { detail: 'Invalid page.' });
  const link = (target: number) => pageLink(url, target === 1 ? null : target);
  return {
    count: index.size,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: index.slice((page - 1) * size, size).map(render),
  };
}

/**
 * A page's link as DRF writes it (rest_framework/utils/urls.py replace_query_param, and
 * remove_query_param for page 1): the query read by urllib.parse.parse_qs (blank values kept) and
 * written back by urlencode(sorted(...), doseq=True), so the parameters come sorted by name, each
 * in quote_plus's spelling (`+` for a space, `%2F`, upper-case hex, `~` left alone).
 */
export function pageLink(url: URL, page: number | null): string {
  const params = parseQs(url.search.slice(1));
  if (page === null) params.delete('page');
  else params.set('page', [String(page)]);
  const names = [...params.keys()].sort(codePointOrder);
  const query = names.flatMap((name) => (params.get(name) as string[]).map((value) => `${quotePlus(name)}=${quotePlus(value)}`)).join('&');
  return `${url.origin}${url.pathname}${query === '' ? '' : `?${query}`}`;
}

/** urllib.parse.parse_qs(query, keep_blank_values=True): `&`-separated, `+` a space, %-escapes read as UTF-8 (bad bytes replaced). */
function parseQs(query: string): Map<string, string[]> {
  const params = new Map<string, string[]>();
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const split = piece.indexOf('=');
    const name = unquote(split < 0 ? piece : piece.slice(0, split));
    const value = split < 0 ? '' : unquote(piece.slice(split + 1));
    const list = params.get(name);
    if (list) list.push(value);
    else params.set(name, [value]);
  }
  return params;
}

const decoder = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** urllib.parse.unquote_plus with errors='replace': only a `%` and two hex digits is an escape. */
function unquote(text: string): string {
  const plain = text.replace(/\+/g, ' ');
  if (!plain.includes('%')) return plain;
  const bytes: number[] = [];
  for (let i = 0; i < plain.length; ) {
    if (plain[i] === '%' && /^[0-9a-fA-F]{2}$/.test(plain.slice(i + 1, i + 3))) {
      bytes.push(parseInt(plain.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const char = String.fromCodePoint(plain.codePointAt(i) as number);
      bytes.push(...encoder.encode(char));
      i += char.length;
    }
  }
  return decoder.decode(new Uint8Array(bytes));
}

/** urllib.parse.quote_plus: letters, digits and `_.-~` as they are, a space as `+`, every other byte %XX. */
function quotePlus(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(char) ? char : byte === 0x20 ? '+' : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
