import type { HttpMethod } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { readJsonArgument } from '../../cli/input.js';
import type { CommandRun } from '../../cli/lazy.js';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const run: CommandRun = async (ctx, [rawMethod, rawPath], options) => {
  const method = String(rawMethod).toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${String(rawMethod)}"`, `use one of ${METHODS.join(', ')}`);
  const path = String(rawPath);
  if (/^https?:\/\//i.test(path)) throw new UsageError('give a path below the base URL, not a full URL', 'e.g. /tasks/browser-use/');
  const data = options.data === undefined ? undefined : await readJsonArgument(String(options.data).replace(/^@-$/, '-'), '--data', ctx.io.stdin);
  if (options.paginate && method !== 'GET') throw new UsageError('--paginate only works with GET');

  const client = await ctx.client();
  if (options.paginate) {
    // Raw output is always JSON: one array, or one object per line with --jsonl.
    await ctx.out.stream(followPages(client, path), [], ctx.out.settings.format === 'jsonl' ? 'jsonl' : 'json');
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

async function* followPages(client: Awaited<ReturnType<import('../../cli/context.js').Context['client']>>, path: string) {
  let next: string | null = path;
  while (next) {
    const page: { results?: unknown[]; next?: string | null } = await client.get(next);
    if (!Array.isArray(page?.results)) throw new UsageError(`${path} is not a paginated list (no "results" array)`);
    yield* page.results;
    next = page.next ?? null;
  }
}
