// The one pagination walker: every list's `--all`, and `api --paginate`. Once the first page gives
// `count`, the remaining pages are fetched with a bounded window in flight and yielded in order, so
// a long list reads at network speed while memory stays at a few pages. It yields a page's items at
// a time (an array), not item by item: each step of an async generator costs a promise, and a list
// of 10,000 passes through several of them on its way to stdout.
import type { ApiClient } from './client.js';
import { ApiError, EndlessListError, PartialListError, ResponseShapeError } from './errors.js';
import type { Page } from './schemas/common.js';
import type { Shape } from './schemas/shapes.js';
import { apiBase, resolveLink } from './url.js';

// Where it always was, for the list commands: the class lives with the other errors (the library exports it).
export { PartialListError };

export const MAX_PAGE_SIZE = 100;
/** Pages in flight at once while walking a list. */
export const PAGE_WINDOW = 8;

export interface PageRequest {
  page?: number;
  pageSize?: number;
  /** Stops a walk and its requests at once (Ctrl-C). */
  signal?: AbortSignal;
  /** Told once, at the end of a walk, when the list changed while it was read. */
  onChange?: (change: ListChange) => void;
}

/**
 * A list that changed while a walk read it (its `count` moved): pages are numbered, so an item added
 * before a page moves the page's items along, and the next page repeats the last of them (left out:
 * `repeated`); an item removed moves them back, and one may be skipped.
 */
export interface ListChange {
  from: number;
  to: number;
  repeated: number;
}

/** One page of a DRF-style list (`page`, `page_size`). */
export function fetchPage<T>(client: ApiClient, path: string, page: Shape<Page<T>>, request: PageRequest = {}): Promise<Page<T>> {
  return client.get(path, { query: { page: request.page, page_size: request.pageSize }, shape: page, signal: request.signal });
}

/** A page as the walker needs it; `check` turns a body into one or says why it is not a page. */
export interface PageShape<T> {
  count?: number | null;
  next?: string | null;
  results: T[];
}

export interface WalkOptions<T> {
  /** The list's path. */
  path: string;
  /** Sent as `page_size` with the first request (later pages follow the service's links). */
  pageSize?: number;
  /** Validates a page body (the page's shape, or a plain check for raw routes). */
  shape?: Shape<PageShape<T>>;
  check?: (body: unknown, url: string) => PageShape<T>;
  window?: number;
  signal?: AbortSignal;
  onChange?: (change: ListChange) => void;
}

/** Every item of a list, a page's items at a time, in the service's order. Only a window of pages is ever held in memory. */
export async function* walkPages<T>(client: ApiClient, options: WalkOptions<T>): AsyncGenerator<T[], void, undefined> {
  const base = apiBase(client.baseUrl);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const get = async (url: string): Promise<PageShape<T>> => {
    const body = await client.get<unknown>(url, { shape: options.shape, signal });
    return options.check ? options.check(body, url) : (body as PageShape<T>);
  };
  let read = 0;
  let pageNumber: number | undefined = 1;
  /** Pages the walk has got to, in order (the one in hand included): a link back makes it more than the page's number. */
  let reached = 1;
  let total: number | undefined;
  const change = new ChangeWatch<T>();
  const guard = new EndlessGuard();
  const accept = (page: PageShape<T>): T[] => {
    guard.read(page);
    return change.items(page);
  };
  const fail = (error: unknown): never => {
    if (signal.aborted && options.signal?.aborted) throw error;
    // A link back to an earlier page: its number is not how far the walk got ("page 1 of 5" after 6 pages).
    if (pageNumber !== undefined && pageNumber < reached) {
      throw new PartialListError(error as Error, read, undefined, undefined, change.moved(), `at page ${pageNumber} again (a link back, after ${reached - 1} pages)`, client.words);
    }
    // A page past the count's last (the guard's stop) has no "of N" worth saying.
    const known = pageNumber !== undefined && total !== undefined && pageNumber <= total ? total : undefined;
    throw new PartialListError(error as Error, read, pageNumber, known, change.moved(), undefined, client.words);
  };

  try {
    const firstUrl = client.url(options.path, { page_size: options.pageSize });
    guard.follow(firstUrl);
    let page = await get(firstUrl.href).catch(fail);
    let pageUrl = firstUrl;
    for (;;) {
      const items = accept(page);
      read += page.results.length;
      yield items;
      if (!page.next) return;
      let next = link(base, page.next, pageUrl);
      const number = pageParam(next);
      const perPage = page.results.length;
      // With a count and numbered links, the rest of the pages are known: fetch them in a window.
      // (A link past the count's last page is followed on its own, for the guard to judge.)
      // No window past the guard's cap: that page is followed on its own, for the guard to judge.
      const pages = typeof page.count === 'number' && perPage > 0 ? Math.ceil(page.count / perPage) : 0;
      const end = Math.min(pages, guard.cap);
      if (number !== undefined && number <= end && read === perPage * (number - 1)) {
        total = pages;
        const setPage = (n: number) => {
          pageNumber = n;
          reached++;
        };
        const last = yield* walkWindow(next, number, end, options.window ?? PAGE_WINDOW, get, setPage, (n) => (read += n), accept);
        if (!last) return;
        next = link(base, last.next, last.url);
      }
      pageNumber = pageParam(next);
      reached++;
      guard.follow(next);
      page = await get(next.href).catch(fail);
      pageUrl = next;
    }
  } catch (error) {
    if (error instanceof PartialListError) throw error;
    fail(error);
  } finally {
    stop.abort();
    const changed = change.result();
    if (changed) options.onChange?.(changed);
  }
}

/** How many times page 1's pages a list may grow to while it is read. */
export const GROWTH_LIMIT = 10;

/**
 * Ends a walk whose pages would never end (a hostile or broken service): a link back to a page
 * already read, more pages than the largest `count` seen allows (+1), and pages that bring nothing
 * new (empty yet linking on, or starting with the item an earlier page started with). A list may
 * grow while it is read, so the cap follows the largest count; but a count raised on every page
 * would move it for ever, so it never passes GROWTH_LIMIT times page 1's pages. O(1) per page.
 * Also for a filtered page read page by page (src/core/list-page.ts), from `first`, its first page.
 */
export class EndlessGuard {
  private readonly urls = new Set<string>();
  private readonly firstIds = new Map<string, number>();
  private pages: number;
  private perPage = 0;
  private firstCount = 0;
  private maxCount = 0;
  private moved = false;
  private ceiling = Infinity;
  /** Pages the walk may read. */
  cap = Infinity;

  constructor(private readonly first = 1) {
    this.pages = first - 1;
  }

  /** Before the next page is requested: refuses one past the cap. */
  ahead(): void {
    if (this.pages >= this.cap) throw this.pastTheEnd(this.pages + 1);
  }

  /** Before a page is requested by a link: refuses one already read, or one past the cap. */
  follow(url: URL): void {
    this.ahead();
    // The same page whatever the order of its query parameters.
    const key = new URL(url);
    key.searchParams.sort();
    if (this.urls.has(key.href)) {
      throw new EndlessListError(`page ${this.pages} links back to a page already read (${url.pathname}${url.search}): the service's pages go round in a circle`);
    }
    this.urls.add(key.href);
  }

  private pastTheEnd(number: number): EndlessListError {
    const pages = this.first - 1 + Math.ceil(this.maxCount / this.perPage);
    if (pages + 1 > this.ceiling) {
      // Count and links agree, but the list kept growing: it may, or its count may be raised on purpose.
      return new EndlessListError(
        `the list kept growing while it was read (page ${this.first} counted ${this.firstCount} items, a later page ${this.maxCount}): agentctl reads at most ${this.ceiling} pages, ${GROWTH_LIMIT} times what page ${this.first}'s count allowed, and the service links to a page ${number}`,
        'it grows faster than it is read (read it again once whatever adds to it has finished), or the service inflates its count',
      );
    }
    const counted = this.moved ? `the largest count it gave, ${this.maxCount} items` : `page ${this.first}'s count of ${this.maxCount} items`;
    return new EndlessListError(
      `the service links to a page ${number}, but ${counted} at ${this.perPage} a page makes ${pages} page${pages === 1 ? '' : 's'}, ${pages + 1} if the list grew meanwhile: its count or its links are wrong`,
    );
  }

  /** Each page as it arrives, in order. */
  read(page: PageShape<unknown>): void {
    const number = ++this.pages;
    const { results, count, next } = page;
    if (number === this.first && typeof count === 'number' && results.length > 0) {
      this.perPage = results.length;
      this.firstCount = this.maxCount = count;
      this.ceiling = this.first - 1 + GROWTH_LIMIT * (Math.ceil(count / this.perPage) + 1);
    } else if (typeof count === 'number' && this.perPage > 0 && count !== this.firstCount) {
      this.moved = true;
      this.maxCount = Math.max(this.maxCount, count);
    }
    if (this.perPage > 0) this.cap = Math.min(this.first - 1 + Math.ceil(this.maxCount / this.perPage) + 1, this.ceiling);
    if (number > this.cap) throw this.pastTheEnd(number);
    if (results.length === 0) {
      if (next) throw new EndlessListError(`page ${number} is empty yet links to a next page: the service's pages bring nothing new`);
      return;
    }
    const first = idOf(results[0]);
    if (first === undefined) return;
    const earlier = this.firstIds.get(first);
    if (earlier !== undefined) {
      const message = `page ${number} starts with item ${first}, as page ${earlier} did: the service's pages bring nothing new`;
      // With a count that moved, a list that gained a page's worth of items at its front does this honestly.
      throw this.moved ? new EndlessListError(`${message} (the list changed while it was read)`, 'read it again once it changes more slowly') : new EndlessListError(message);
    }
    this.firstIds.set(first, number);
  }
}

/**
 * Watches a walk's `count`: while it stays as the first page said, pages pass as they are (no cost);
 * once it moves, an item the page before already held is left out.
 */
class ChangeWatch<T> {
  private first: number | undefined;
  private last: number | undefined;
  private repeated = 0;
  private previous: T[] = [];

  items(page: PageShape<T>): T[] {
    const { count, results } = page;
    if (typeof count === 'number') {
      this.first ??= count;
      this.last = count;
    }
    let kept = results;
    if (this.first !== this.last && results.length > 0 && this.previous.length > 0) {
      const seen = new Set(this.previous.map(idOf).filter((id) => id !== undefined));
      kept = results.filter((item) => {
        const id = idOf(item);
        return id === undefined || !seen.has(id);
      });
      this.repeated += results.length - kept.length;
    }
    if (results.length > 0) this.previous = results;
    return kept;
  }

  /** Whether the count moved from the first page's. */
  moved(): boolean {
    return this.first !== this.last;
  }

  /** What changed, once the walk is over; undefined when the count never moved. */
  result(): ListChange | undefined {
    return this.first === undefined || this.last === undefined || this.first === this.last ? undefined : { from: this.first, to: this.last, repeated: this.repeated };
  }
}

function idOf(item: unknown): string | undefined {
  const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Pages `first..total` with up to `window` requests in flight, yielded in order. Returns the last
 * page's `next` link when it has one (the list grew while it was read), so the caller follows on.
 */
async function* walkWindow<T>(
  template: URL,
  first: number,
  total: number,
  window: number,
  get: (url: string) => Promise<PageShape<T>>,
  setPage: (n: number) => void,
  addRead: (n: number) => void,
  accept: (page: PageShape<T>) => T[],
): AsyncGenerator<T[], { next: string; url: URL } | undefined, undefined> {
  const inFlight: Array<{ number: number; url: URL; answer: Promise<PageShape<T> | undefined> }> = [];
  let requested = first - 1;
  const refill = () => {
    while (inFlight.length < window && requested < total) {
      const number = ++requested;
      const url = new URL(template);
      url.searchParams.set('page', String(number));
      // A page past the end (the list shrank while it was read) is the end, not an error.
      const answer = get(url.href).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404 && number > first) return undefined;
        throw error;
      });
      answer.catch(() => undefined); // handled when its turn comes; never an unhandled rejection
      inFlight.push({ number, url, answer });
    }
  };
  refill();
  for (;;) {
    const head = inFlight.shift();
    if (!head) return undefined;
    setPage(head.number);
    const page = await head.answer;
    if (!page) return undefined;
    refill();
    const items = accept(page);
    addRead(page.results.length);
    yield items;
    if (head.number === total) return page.next ? { next: page.next, url: head.url } : undefined;
  }
}

function link(base: URL, next: string, from: URL): URL {
  const resolved = resolveLink(base, next, from);
  if (!resolved.ok) throw new ResponseShapeError(`refusing to follow the service's next link: ${resolved.reason}`);
  return resolved.url;
}

function pageParam(url: URL): number | undefined {
  const value = url.searchParams.get('page');
  return value !== null && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined;
}

/** A raw route's body as a page, for `api --paginate`. */
export function checkPage(body: unknown, url: string): PageShape<unknown> {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new ResponseShapeError(`${new URL(url).pathname} is not a paginated list (no "results" array)`);
  return body as PageShape<unknown>;
}

/** Every item of a typed list, a page at a time. */
export function iterateAll<T>(client: ApiClient, path: string, page: Shape<PageShape<T>>, request: PageRequest = {}): AsyncGenerator<T[]> {
  return walkPages(client, {
    path,
    pageSize: request.pageSize ?? MAX_PAGE_SIZE,
    shape: page,
    signal: request.signal,
    onChange: request.onChange,
  });
}
