import type { HttpMethod } from '../../api/client.js';
import { checkPage, walkPages, type PartialListError } from '../../api/pagination.js';
import { untilFailure } from '../shared/list.js';
import { UsageError } from '../../errors.js';
import { readJsonArgument } from '../../cli/input.js';
import type { CommandRun } from '../../cli/lazy.js';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const run: CommandRun = async (ctx, [rawMethod, rawPath], options) => {
  const method = String(rawMethod).toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${String(rawMethod)}"`, `use one of ${METHODS.join(', ')}`);
  const path = String(rawPath);
  const data = options.data === undefined ? undefined : await readJsonArgument(String(options.data).replace(/^@-$/, '-'), '--data', ctx.io.stdin);
  if (options.paginate && method !== 'GET') throw new UsageError('--paginate only works with GET');

  const client = await ctx.client();
  // Checked before any request: a path that resolves to another host is refused (exit 2).
  client.url(path);
  if (options.paginate) {
    // Raw output is always JSON: one array, or one object per line with --jsonl.
    const stopped: { error?: PartialListError } = {};
    const pages = walkPages(client, { path, check: checkPage, signal: ctx.signal });
    await ctx.out.stream(untilFailure(pages, stopped), [], ctx.out.settings.format === 'jsonl' ? 'jsonl' : 'json');
    if (stopped.error) throw stopped.error;
    return;
  }
  const response = await client.request(method, path, { body: data });
  if (response.data === undefined) {
    if (ctx.out.machine) ctx.out.json({ status: response.status });
    else ctx.out.info(`${response.status} (no body)`);
  } else if (typeof response.data === 'string') {
    ctx.out.line(response.data);
  } else {
    ctx.out.json(response.data);
  }
};
