import type { Context } from '../../cli/context.js';
import type { OptionSpec, ParseInput } from '../../cli/define.js';
import { PartialListError, type ListChange, type PageRequest } from '../../api/pagination.js';
import type { Page } from '../../api/schemas/common.js';
import { LIMITS, parseIntegerFlag } from '../../contract/validate.js';
import { UsageError } from '../../errors.js';
import type { Column } from '../../output/table.js';
import { readPage } from '../../core/list-page.js';

export interface ListOptions {
  page?: number;
  pageSize?: number;
  all: boolean;
}

/** `--page`, `--page-size` and `--all`, the same on every list. */
export const LIST_OPTIONS: OptionSpec[] = [
  { flags: '--page <n>', description: 'page number, from 1' },
  { flags: '--page-size <n>', description: `items per page, 1..${LIMITS.pageSize} (service default 10)` },
  { flags: '--all', description: 'every page (streams with --jsonl)' },
];

export function parseListOptions(input: ParseInput): ListOptions {
  const [pageText, pageSizeText] = [input.string('page'), input.string('pageSize')];
  const page = pageText === undefined ? undefined : parseIntegerFlag(pageText, '--page', 1, Number.MAX_SAFE_INTEGER);
  const pageSize = pageSizeText === undefined ? undefined : parseIntegerFlag(pageSizeText, '--page-size', 1, LIMITS.pageSize);
  const all = input.flag('all');
  if (all && page !== undefined) throw new UsageError('--all reads every page; drop --page');
  return { page, pageSize, all };
}

export interface ListSource<T> {
  page: (request: Pick<PageRequest, 'page' | 'pageSize' | 'signal'>) => Promise<Page<T>>;
  /** Every item, a page's items at a time. */
  all: (request: Pick<PageRequest, 'pageSize' | 'signal' | 'onChange'>) => AsyncIterable<T[]>;
  /** Client-side filter (the service has none). */
  filter?: (item: T) => boolean;
}

/** Prints one page or every page of a list in the format the user asked for. */
export async function printList<T>(ctx: Context, source: ListSource<T>, options: ListOptions, columns: Column<T>[]): Promise<void> {
  if (options.all) {
    const stopped: { error?: PartialListError } = {};
    const pages = source.all({ pageSize: options.pageSize, signal: ctx.signal, onChange: (change) => warnChanged(ctx, change) });
    // Without a filter the pages pass as they are: no copy of every page, no step more per page.
    const count = await ctx.out.stream(untilFailure(source.filter ? filtered(pages, source.filter) : pages, stopped), columns);
    // A walk that failed part-way still ends its output properly (a closed JSON array), then says so.
    if (stopped.error) throw stopped.error;
    ctx.out.tableNote(`${count} item${count === 1 ? '' : 's'}`);
    return;
  }
  const first = options.page ?? 1;
  const { items, page, current } = await readPage(source, { ...options, signal: ctx.signal });
  ctx.out.list(items, columns);
  if (page.next) {
    // On stderr in every format (silenced by --quiet), so a script reading page 1 knows there is more.
    const read = current === first ? `Page ${first}` : `Pages ${first}-${current}`;
    ctx.out.info(ctx.out.chalk.dim(`${read} of ${page.count} items. More: --page ${current + 1}, or --all.`));
  }
}

/** Says on stderr that a list read with --all changed meanwhile, and what that means for the output. */
export function warnChanged(ctx: Context, { from, to, repeated }: ListChange): void {
  const left = repeated === 0 ? '' : `; ${repeated} item${repeated === 1 ? '' : 's'} that a page repeated from the page before ${repeated === 1 ? 'was' : 'were'} printed once`;
  ctx.out.warn(`the list changed while it was read (${from} -> ${to} items)${left}; items added or removed meanwhile may be missing: read it again for a consistent list`);
}

/** One page of a list (`--page`, `--page-size`), with a client-side filter applied: also for --watch. */
export { readPage };

/** Ends the stream quietly at a partial list's failure, keeping the error for after the output is closed. */
export async function* untilFailure<T>(pages: AsyncIterable<T[]>, stopped: { error?: PartialListError }): AsyncGenerator<T[]> {
  try {
    yield* pages;
  } catch (error) {
    if (!(error instanceof PartialListError)) throw error;
    stopped.error = error;
  }
}

async function* filtered<T>(pages: AsyncIterable<T[]>, keep: (item: T) => boolean): AsyncGenerator<T[]> {
  for await (const items of pages) yield items.filter(keep);
}
