import type { HttpMethod } from '../../api/client.js';
import { notJsonError } from '../../api/errors.js';
import { checkPage, walkPages, type PartialListError } from '../../api/pagination.js';
import { defineCommand } from '../../cli/define.js';
import { readJsonArgument } from '../../cli/input.js';
import { UsageError } from '../../errors.js';
import { untilFailure, warnChanged } from '../common/list.js';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const command = defineCommand({
  name: 'api',
  summary: 'send a raw authenticated request to any route and print the JSON answer',
  args: [
    { name: '<method>', description: 'GET, POST, PUT, PATCH or DELETE' },
    { name: '<path>', description: 'path below the base URL, e.g. /ping/ (the trailing slash is added)' },
  ],
  options: [
    { flags: '--data <json|@file>', description: 'request body: inline JSON, @FILE, or @- for stdin' },
    { flags: '--paginate', description: 'for GET on a list: follow every page and print all results as one array' },
  ],
  examples: [
    'agentctl api GET /ping/',
    'agentctl api GET /tasks/browser-use/ --paginate | jq length',
    'agentctl api GET /tasks/browser-use/ --jq \'.results[].id\'',
    'agentctl api POST /agents/browser-use/ --data \'{"name":"scraper"}\'',
    'agentctl api POST "/webhooks/inbound/agents/$HOOK/?t=$SECRET" --data @event.json',
  ],
  parse(input) {
    const rawMethod = input.arg(0) ?? '';
    const method = rawMethod.toUpperCase() as HttpMethod;
    if (!METHODS.includes(method)) throw new UsageError(`unknown method "${rawMethod}"`, `use one of ${METHODS.join(', ')}`);
    const path = input.arg(1) ?? '';
    if (/^https?:\/\//i.test(path)) throw new UsageError('give a path below the base URL, not a full URL', 'e.g. /tasks/browser-use/');
    const paginate = input.flag('paginate');
    if (paginate && method !== 'GET') throw new UsageError('--paginate only works with GET');
    return { method, path, data: input.string('data'), paginate };
  },
  async run({ method, path, data: dataFlag, paginate }, ctx) {
    const data = dataFlag === undefined ? undefined : await readJsonArgument(dataFlag.replace(/^@-$/, '-'), '--data', ctx.io.stdin);
    const client = await ctx.client();
    // Checked before any request: a path that resolves to another host is refused (exit 2).
    client.url(path);
    if (paginate) {
      // Raw output is always JSON: one array, or one object per line with --jsonl.
      const stopped: { error?: PartialListError } = {};
      const pages = walkPages(client, { path, check: checkPage, signal: ctx.signal, onChange: (change) => warnChanged(ctx, change) });
      await ctx.out.stream(untilFailure(pages, stopped), [], ctx.out.settings.format === 'jsonl' ? 'jsonl' : 'json');
      if (stopped.error) throw stopped.error;
      return;
    }
    const response = await client.request(method, path, { body: data });
    if (response.data === undefined) {
      ctx.out.answer({ status: response.status }, () => ctx.out.info(`${response.status} (no body)`));
    } else if (typeof response.data === 'string') {
      // A login page or a cut-off answer is no JSON: a script that asked for JSON must not get it with exit 0.
      if (ctx.out.machine) {
        const type = response.headers['content-type'];
        throw notJsonError(method, path, response.status, Array.isArray(type) ? type[0] : type, response.data);
      }
      ctx.out.line(response.data);
    } else {
      ctx.out.json(response.data);
    }
  },
});
