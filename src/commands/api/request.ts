import type { HttpMethod } from '../../api/client.js';
import { notJsonError } from '../../api/errors.js';
import { checkPage, walkPages, type PartialListError } from '../../api/pagination.js';
import { defineCommand } from '../../cli/define.js';
import { readJsonArgument } from '../../cli/input.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../output/sanitize.js';
import { parseHeaders, readFields } from './fields.js';
import { untilFailure, warnChanged } from '../common/list.js';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface ApiOptions {
  method: HttpMethod;
  path: string;
  data?: string;
  paginate: boolean;
  raw: string[];
  typed: string[];
  headers: Record<string, string>;
  include: boolean;
}

function checkMethod(text: string): HttpMethod {
  const method = text.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${text}"`, `use one of ${METHODS.join(', ')}`);
  return method;
}

export const command = defineCommand({
  name: 'api',
  summary: 'send a raw authenticated request to any route and print the JSON answer',
  args: [
    { name: '<method-or-path>', description: 'GET, POST, PUT, PATCH or DELETE, then the path; or the path alone (GET, or POST with fields, as gh api)' },
    { name: '[path]', description: 'path below the base URL, e.g. /ping/ (the trailing slash is added)' },
  ],
  options: [
    { flags: '-X, --method <method>', description: 'the HTTP method (default GET, or POST when -f/-F give fields)' },
    { flags: '-f, --raw-field <key=value>', description: 'a string field: in the JSON body, or the query string for GET and DELETE (repeatable)', repeatable: true },
    { flags: '-F, --field <key=value>', description: 'a typed field: true, false, null and numbers as such, @FILE for a file\'s text (repeatable)', repeatable: true },
    { flags: '-H, --header <line>', description: 'an extra request header, "Name: value" (repeatable)', repeatable: true },
    { flags: '-i, --include', description: 'print the status line and the response headers before the body' },
    { flags: '--input <file>', description: 'the request body from a JSON file (- for stdin); the same as --data @FILE' },
    { flags: '--data <json|@file>', description: 'request body: inline JSON, @FILE, or @- for stdin' },
    { flags: '--paginate', description: 'for GET on a list: follow every page and print all results as one array' },
  ],
  notes:
    'As gh api: fields (-f, -F) make a POST with a JSON body unless -X or METHOD says otherwise; with GET and\n' +
    'DELETE they go in the query string. The API key is sent as always and cannot be set with -H.',
  examples: [
    'agentctl api GET /ping/',
    'agentctl api -X GET /tasks/browser-use/ -f status=completed -F page_size=50   # GET: fields go in the query',
    'agentctl api /agents/browser-use/ -f name=scraper                 # POST, as gh api',
    'agentctl api -X PATCH /agents/browser-use/ID/ --input changes.json',
    'agentctl api /ping/ --include -H "X-Trace: 42"',
    'agentctl api GET /tasks/browser-use/ --paginate | jq length',
    'agentctl api POST "/webhooks/inbound/agents/$HOOK/?t=$SECRET" --data @event.json',
  ],
  parse(input): ApiOptions {
    const [first, second] = [input.arg(0) ?? '', input.arg(1)];
    const named = second === undefined ? undefined : checkMethod(first);
    const path = second ?? first;
    const flagMethod = input.string('method') === undefined ? undefined : checkMethod(input.string('method') ?? '');
    if (named && flagMethod && named !== flagMethod) throw new UsageError(`the method is given twice: ${named} and -X ${flagMethod}`, 'give one of them');
    if (/^https?:\/\//i.test(path)) throw new UsageError('give a path below the base URL, not a full URL', 'e.g. /tasks/browser-use/');
    const [raw, typed] = [input.list('rawField'), input.list('field')];
    const input_ = input.string('input');
    const bodies = [input.string('data') !== undefined, input_ !== undefined, raw.length + typed.length > 0].filter(Boolean).length;
    if (bodies > 1) throw new UsageError('give the body one way: --data, --input or fields (-f/-F)');
    const method = named ?? flagMethod ?? (bodies > 0 ? 'POST' : 'GET');
    const paginate = input.flag('paginate');
    if (paginate && method !== 'GET') throw new UsageError('--paginate only works with GET');
    if (paginate && bodies > 0) throw new UsageError('--paginate takes no fields', 'put them in the path: /tasks/browser-use/?status=completed');
    const data = input_ === undefined ? input.string('data') : `@${input_}`;
    for (const field of [...raw, ...typed]) if (!/^[^=]+=/.test(field)) throw new UsageError(`field "${field}" is not KEY=VALUE`, 'e.g. -f name=scraper');
    return { method, path, data, paginate, raw, typed, headers: parseHeaders(input.list('header')), include: input.flag('include') };
  },
  async run({ method, path, data: dataFlag, paginate, raw, typed, headers, include }, ctx) {
    const fields = raw.length + typed.length > 0 ? await readFields(raw, typed, ctx.io.stdin) : undefined;
    const inQuery = fields !== undefined && (method === 'GET' || method === 'DELETE');
    const data = dataFlag === undefined ? (inQuery ? undefined : fields) : await readJsonArgument(dataFlag.replace(/^@-$/, '-'), '--data', ctx.io.stdin);
    const query = inQuery ? Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean)])) : undefined;
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
    const response = await client.request(method, path, { body: data, query, headers });
    if (include) printHead(ctx, response.status, response.headers);
    if (response.data === undefined) {
      if (!include) ctx.out.answer({ status: response.status }, () => ctx.out.info(`${response.status} (no body)`));
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

/** --include: `HTTP STATUS`, the headers (the service's text, control characters escaped), a blank line. */
function printHead(ctx: Context, status: number, headers: Record<string, string | string[] | undefined>): void {
  const lines = [`HTTP ${status}`];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push(sanitizeLine(`${name}: ${one}`));
  }
  for (const line of [...lines, '']) ctx.out.line(line);
}
