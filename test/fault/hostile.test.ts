// Issue 25: a hostile or broken service, cell by cell. Each attack is a stub server in this process
// scripted to misbehave (endless pages, huge or deep bodies, skewed clocks, redirects, bodies that are
// not JSON), and each cell checks what a user sees: the exit code, what stderr says, what stdout
// holds (nothing, or the part of a list read before the walk stopped), no stack trace, and that the
// command stopped after a bounded number of requests. The config-file cells attack the file system
// instead (a config.json that is a symbolic link). With HOSTILE_MATRIX_OUT=file the cells' outcomes
// are written there as a table.
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentctl, against, tempDir, type CliResult } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { sendJson, stubServer, type StubRequest } from '../helpers/stub-server.js';

const TASK_ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const task = (id: string) => ({ id, prompt: 'p', status: 'completed', created_at: '2026-05-01T08:00:00Z', updated_at: '2026-05-01T08:00:00Z' });
const MB = 1024 * 1024;
const event = (cursor: string) => ({ kind: 'thinking', cursor, timestamp: '2026-05-01T08:00:00Z' });
/** A timeline window that always says there is more, older and newer. */
const timelineWindow = (events: object[], cursor: string) => ({
  events,
  oldest_cursor: cursor,
  newest_cursor: cursor,
  has_more_older: true,
  has_more_newer: true,
  processing_active: false,
});

interface Attack {
  name: string;
  /** The stub service's answer to each request. */
  serve: (request: StubRequest, response: ServerResponse, index: number, clock: FakeClock) => void;
  args: string[];
  env?: Record<string, string>;
  exit: number;
  says: RegExp[];
  /** What stdout must hold: nothing (the default), or a check. */
  stdout?: (stdout: string) => void;
  /** Most requests the command may send before it stops (1 by default). */
  maxRequests?: number;
  /** More checks (the waits asked for). */
  also?: (result: CliResult, clock: FakeClock) => void;
}

/** An absolute next link to `query` on the request's own path. */
const nextLink = (request: StubRequest, query: string) => `http://${request.headers.host}${new URL(request.url, 'http://stub').pathname}?${query}`;
const pageOf = (request: StubRequest) => Number(new URL(request.url, 'http://stub').searchParams.get('page') ?? 1);
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const ids = (stdout: string) => (JSON.parse(stdout) as Array<{ id: string }>).map((item) => item.id);

/** Writes `{"data": "aaa..."}` of about `bytes` in 64 KB chunks, without a Content-Length (chunked), until done or the client leaves. */
function stream(response: ServerResponse, bytes: number): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  response.write('{"data": "');
  const more = () => {
    while (sent < bytes && !response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    if (!response.destroyed) response.end('"}');
  };
  response.on('error', () => undefined);
  more();
}

/** Every request answered with this status and JSON-typed text. */
const answer = (status: number, text: string) => (_request: StubRequest, response: ServerResponse) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(text);

/** An HTTP date `offsetMs` from the fake clock's now. */
const httpDate = (clock: FakeClock, offsetMs: number) => new Date(clock.now() + offsetMs).toUTCString();

const attacks: Attack[] = [
  // Item 2: pages that never end.
  {
    name: 'api --paginate: a next link to itself',
    serve: (request, response) => sendJson(response, 200, { next: `http://${request.headers.host}${request.url}`, previous: null, results: [task('a'), task('b')] }),
    args: ['api', 'GET', '/tasks/browser-use/', '--paginate'],
    exit: 1,
    says: [/the list is partial: it stopped following a next link, after 2 items: page 1 links back to a page already read \(\/api\/v1\/tasks\/browser-use\/\): the service's pages go round in a circle/],
    stdout: (stdout) => expect(ids(stdout)).toEqual(['a', 'b']),
  },
  {
    name: 'api --paginate: pages in a circle (1, 2, 1 ...)',
    serve: (request, response) => {
      const page = pageOf(request);
      sendJson(response, 200, { next: nextLink(request, `page=${page === 1 ? 2 : 1}`), previous: null, results: [task(page === 1 ? 'a' : 'b')] });
    },
    args: ['api', 'GET', '/tasks/browser-use/', '--paginate'],
    exit: 1,
    says: [/page 3 starts with item a, as page 1 did: the service's pages bring nothing new/],
    stdout: (stdout) => expect(ids(stdout)).toEqual(['a', 'b']),
    maxRequests: 3,
  },
  {
    name: '--all: a count of 1,000,000,000 and every page the same item',
    serve: (request, response) => sendJson(response, 200, { count: 1_000_000_000, next: nextLink(request, `page=${pageOf(request) + 1}`), previous: null, results: [task('same')] }),
    args: ['tasks', 'list', '--all', '--json'],
    exit: 1,
    says: [/the list is partial: it stopped at page 2 of 1000000000, after 1 item: page 2 starts with item same, as page 1 did: the service's pages bring nothing new/],
    stdout: (stdout) => expect(ids(stdout)).toEqual(['same']),
    // Page 1, then the window of 8 pages in flight.
    maxRequests: 9,
  },
  {
    name: '--all: new items for ever, past what page 1\'s count allows',
    serve: (request, response) => {
      const page = pageOf(request);
      sendJson(response, 200, { count: 15, next: nextLink(request, `page=${page + 1}&page_size=10`), previous: null, results: Array.from({ length: 10 }, (_, i) => task(`p${page}-${i}`)) });
    },
    args: ['tasks', 'list', '--all', '--page-size', '10', '--jsonl'],
    exit: 1,
    says: [/the service links to a page 4, but page 1's count of 15 items at 10 a page makes 2 pages, 3 if the list grew meanwhile: its count or its links are wrong/],
    // Pages 1 and 2, and the one more a list that grew may have: each line a whole item.
    stdout: (stdout) => expect(stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toHaveLength(30),
    maxRequests: 3,
  },
  {
    name: '--all: a count raised on every page, each page new items',
    serve: (request, response) => {
      const page = pageOf(request);
      sendJson(response, 200, { count: page * 10 + 15, next: nextLink(request, `page=${page + 1}&page_size=10`), previous: null, results: Array.from({ length: 10 }, (_, i) => task(`p${page}-${i}`)) });
    },
    args: ['tasks', 'list', '--all', '--page-size', '10', '--jsonl'],
    exit: 1,
    says: [/the list kept growing while it was read \(page 1 counted 25 items, a later page 415\): agentctl reads at most 40 pages, 10 times what page 1's count allowed/, /stopped at page 41, after 400 items/, /"hint":"it grows faster than it is read .*or the service inflates its count; the list changed while it was read, so what was printed may lack items/],
    // 40 pages, 10 times the 4 page 1's count allows, and no request past them.
    stdout: (stdout) => expect(stdout.trim().split('\n')).toHaveLength(400),
    maxRequests: 40,
  },
  {
    name: 'api --paginate: an empty page that links on',
    serve: (request, response) => {
      const page = pageOf(request);
      sendJson(response, 200, { next: nextLink(request, `page=${page + 1}`), previous: null, results: page === 1 ? [task('a')] : [] });
    },
    args: ['api', 'GET', '/tasks/browser-use/', '--paginate'],
    exit: 1,
    says: [/page 2 is empty yet links to a next page: the service's pages bring nothing new/, /hint: the service's pagination is broken; tell its operators; what was printed is correct up to there: run the command again\n/],
    stdout: (stdout) => expect(ids(stdout)).toEqual(['a']),
    maxRequests: 2,
  },
  // Issue 48: a filtered page (`--status`) reads on until a page's worth matches, which these pages never do.
  {
    name: 'tasks list --status failed: a count of 50, one new task a page, never failed',
    serve: (request, response) => sendJson(response, 200, { count: 50, next: 'x', previous: null, results: [task(`t${pageOf(request)}`)] }),
    args: ['tasks', 'list', '--status', 'failed', '--json'],
    exit: 1,
    says: [/page 1's count of 50 items at 1 a page makes 50 pages, 51 if the list grew meanwhile: its count or its links are wrong/],
    // Pages 1-50 and the one more a list that grew may have.
    maxRequests: 51,
  },
  {
    name: 'tasks list --status failed: the same task on every page',
    serve: (_request, response) => sendJson(response, 200, { count: 50, next: 'x', previous: null, results: [task('same')] }),
    args: ['tasks', 'list', '--status', 'failed', '--json'],
    exit: 1,
    says: [/page 2 starts with item same, as page 1 did: the service's pages bring nothing new/],
    maxRequests: 2,
  },
  // Timeline windows that never end (`persistent timeline --all` follows oldest_cursor back).
  {
    name: 'timeline --all: one new event and a new cursor in every window, for ever',
    serve: (_request, response, index) => sendJson(response, 200, timelineWindow([event(`e${index}`)], `e${index}`)),
    args: ['persistent', 'timeline', TASK_ID, '--all', '--jsonl'],
    exit: 1,
    says: [
      /the list is partial: it stopped paging back through older windows, after 1000 items: the timeline goes back more than 1000 windows, as far as --all reads \(100000 events at 100 a window\)/,
      /"hint":"older events: the same command with --direction older --cursor e999; what was printed is correct up to there/,
    ],
    // What was read, oldest first.
    stdout: (stdout) => {
      const cursors = stdout.trim().split('\n').map((line) => JSON.parse(line).cursor);
      expect(cursors).toHaveLength(1000);
      expect([cursors[0], cursors[999]]).toEqual(['e999', 'e0']);
    },
    maxRequests: 1000,
  },
  {
    name: 'timeline --all: the same oldest_cursor in every window',
    serve: (_request, response, index) => sendJson(response, 200, timelineWindow([event(index === 0 ? 'b' : 'a')], 'same')),
    args: ['persistent', 'timeline', TASK_ID, '--all', '--json'],
    exit: 1,
    says: [/the list is partial: .*after 2 items: window 2 gives the same oldest_cursor as window 1 \(same\): the service's windows go round in a circle/],
    stdout: (stdout) => expect((JSON.parse(stdout) as Array<{ cursor: string }>).map((e) => e.cursor)).toEqual(['a', 'b']),
    maxRequests: 2,
  },
  {
    name: 'timeline --all: a window of events already read',
    serve: (_request, response, index) => sendJson(response, 200, timelineWindow([event('a')], `c${index}`)),
    args: ['persistent', 'timeline', TASK_ID, '--all', '--jsonl'],
    exit: 1,
    says: [/window 2 holds only events already read yet says there are older events: the service's windows bring nothing new/],
    stdout: (stdout) => expect(stdout.trim().split('\n')).toHaveLength(1),
    maxRequests: 2,
  },
  {
    name: 'timeline --all: an empty window that says there are older events',
    serve: (_request, response, index) => sendJson(response, 200, timelineWindow(index === 0 ? [event('a')] : [], `c${index}`)),
    args: ['persistent', 'timeline', TASK_ID, '--all', '--jsonl'],
    exit: 1,
    says: [/window 2 is empty yet says there are older events/],
    stdout: (stdout) => expect(stdout.trim().split('\n')).toHaveLength(1),
    maxRequests: 2,
  },
  // Item 3: bodies too big to read.
  {
    name: 'a 600 MB body (Content-Length) to tasks get --json',
    serve: (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * MB) });
      response.write('{"id": "');
    },
    args: ['tasks', 'get', TASK_ID, '--json'],
    exit: 1,
    says: [/answered 200 with a body of 600 MB, over the 64 MB agentctl reads: it stopped reading/, /raise the limit: --max-response MB or AGENTCTL_MAX_RESPONSE_MB \(up to 500; see docs\/limits\.md\)/],
  },
  {
    name: 'a body past --max-response, streamed without a length',
    serve: (_request, response) => stream(response, 5 * MB),
    args: ['tasks', 'get', TASK_ID, '--max-response', '1'],
    exit: 1,
    says: [/answered 200 with a body of more than 1 MB, over the 1 MB agentctl reads: it stopped reading/],
  },
  {
    name: 'AGENTCTL_MAX_RESPONSE_MB lets a big body through',
    serve: (_request, response) => stream(response, 2 * MB),
    args: ['api', 'GET', `/tasks/browser-use/${TASK_ID}/`, '--json'],
    env: { AGENTCTL_MAX_RESPONSE_MB: '3' },
    exit: 0,
    says: [],
    stdout: (stdout) => expect(JSON.parse(stdout).data.length).toBeGreaterThanOrEqual(2 * MB),
  },
  {
    name: 'an empty AGENTCTL_MAX_RESPONSE_MB counts as unset (the default limit)',
    serve: (_request, response) => sendJson(response, 200, task(TASK_ID)),
    args: ['tasks', 'get', TASK_ID, '--json'],
    env: { AGENTCTL_MAX_RESPONSE_MB: '' },
    exit: 0,
    says: [],
    stdout: (stdout) => expect(JSON.parse(stdout).id).toBe(TASK_ID),
  },
  {
    name: '--max-response 0 is refused before any request',
    serve: (_request, response) => sendJson(response, 200, task(TASK_ID)),
    args: ['tasks', 'get', TASK_ID, '--max-response', '0'],
    exit: 2,
    says: [/--max-response must be between 1 and 500, got 0/],
    maxRequests: 0,
  },
  // Item 4: JSON too deep to print or filter.
  {
    name: 'api GET --json: an array 5,000 deep',
    serve: answer(200, deep(5000)),
    args: ['api', 'GET', '/deep/', '--json'],
    exit: 1,
    says: [/"message":"the service's answer cannot be printed: it is nested too deeply \(thousands of levels\)"/],
  },
  {
    name: 'api GET --jq: an array 5,000 deep',
    serve: answer(200, deep(5000)),
    args: ['api', 'GET', '/deep/', '--jq', '.[0]'],
    exit: 1,
    says: [/the service's answer cannot be printed: it is nested too deeply/],
  },
  {
    name: 'api GET --jq: an array 300 deep (deeper than jq reads)',
    serve: answer(200, deep(300)),
    args: ['api', 'GET', '/deep/', '--jq', '.'],
    exit: 1,
    says: [/the service's answer cannot be filtered with --jq: jq cannot read it \(.*depth limit/],
  },
  {
    name: 'tasks result: a result 5,000 deep',
    serve: answer(200, `{"id":"${TASK_ID}","status":"completed","result":${deep(5000)}}`),
    args: ['tasks', 'result', TASK_ID],
    exit: 1,
    says: [/the service's answer cannot be printed: it is nested too deeply/],
  },
  {
    name: 'a 400 whose error body is 5,000 deep',
    serve: answer(400, `{"detail":${deep(5000)}}`),
    args: ['tasks', 'get', TASK_ID],
    exit: 1,
    says: [/answered 400 \(invalid request\): detail: \(nested deeper than 16 levels\)/],
  },
  // Item 5: Retry-After dates on the service's clock.
  {
    name: 'Retry-After a date 3 s on, the service\'s clock 1 h ahead',
    serve: (_request, response, index, clock) => {
      if (index > 0) return sendJson(response, 200, task(TASK_ID));
      sendJson(response, 429, { detail: 'slow down' }, { date: httpDate(clock, 3_600_000), 'retry-after': httpDate(clock, 3_603_000) });
    },
    args: ['tasks', 'get', TASK_ID, '--json'],
    exit: 0,
    says: [],
    stdout: (stdout) => expect(JSON.parse(stdout).id).toBe(TASK_ID),
    maxRequests: 2,
    also: (_result, clock) => expect(Math.max(...clock.sleeps)).toBeGreaterThanOrEqual(3000),
  },
  {
    name: 'Retry-After a date 3 s on, the service\'s clock 1 h behind',
    serve: (_request, response, index, clock) => {
      if (index > 0) return sendJson(response, 200, task(TASK_ID));
      sendJson(response, 429, { detail: 'slow down' }, { date: httpDate(clock, -3_600_000), 'retry-after': httpDate(clock, -3_597_000) });
    },
    args: ['tasks', 'get', TASK_ID, '--json'],
    exit: 0,
    says: [],
    stdout: (stdout) => expect(JSON.parse(stdout).id).toBe(TASK_ID),
    maxRequests: 2,
    // Asked for 3 s, waited 3 s (plus no more than the backoff's jitter): neither at once nor an hour.
    also: (_result, clock) => expect(clock.sleeps.some((ms) => ms >= 3000 && ms < 5000)).toBe(true),
  },
  {
    name: 'Retry-After: 10^20 seconds',
    serve: (_request, response) => sendJson(response, 429, { detail: 'Request was throttled.' }, { 'retry-after': '100000000000000000000' }),
    args: ['tasks', 'list'],
    exit: 1,
    says: [/hint: the service is rate limiting and asks to wait 3\.2e\+12 years \(Retry-After: 100000000000000000000\), far more than agentctl ever waits: it stopped at once; try again later/],
  },
  // Item 6: redirects and bodies that are not JSON.
  {
    name: 'a 302 to another host',
    serve: (_request, response) => response.writeHead(302, { location: 'https://elsewhere.example/login' }).end(),
    args: ['tasks', 'get', TASK_ID],
    exit: 1,
    says: [/error: GET \/api\/v1\/tasks\/browser-use\/[0-9a-f-]+\/ was answered 302, a redirect to https:\/\/elsewhere\.example\/login; agentctl does not follow redirects/],
  },
  {
    name: 'a 301 of the whole service to https',
    serve: (request, response) => response.writeHead(301, { location: `https://${request.headers.host}${request.url}` }).end(),
    args: ['persistent', 'list'],
    exit: 1,
    says: [/was answered 301, a redirect to https:\/\/127\.0\.0\.1:\d+\/api\/v1\/agents\/\S*; agentctl does not follow redirects/, /hint: if the service has moved to https:\/\/127\.0\.0\.1:\d+\/api\/v1 and you trust it, use that as the base URL: --base-url https:\/\/127\.0\.0\.1:\d+\/api\/v1/],
  },
  {
    name: 'api GET: a 307 is not printed as a success',
    serve: (_request, response) => response.writeHead(307, { location: '/elsewhere/' }).end(),
    args: ['api', 'GET', '/ping/'],
    exit: 1,
    says: [/was answered 307, a redirect to http:\/\/127\.0\.0\.1:\d+\/elsewhere\/; agentctl does not follow redirects/],
  },
  {
    name: 'a JSON content type on a body that is not JSON',
    serve: answer(200, `{"id": "${TASK_ID}", "status": `),
    args: ['tasks', 'get', TASK_ID],
    exit: 1,
    says: [/answered 200 with a body that is not JSON \(application\/json; Unexpected end of JSON input\): \{"id"/],
  },
  {
    name: 'a login page instead of a list',
    serve: (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>Sign in</title><body>...</body></html>'),
    args: ['agents', 'list', '--json'],
    exit: 1,
    says: [/answered 200 with a body that is not JSON \(text\/html\): Sign in \(non-JSON response\)/],
  },
];

const outcomes: string[] = [];

afterAll(() => {
  const out = process.env.HOSTILE_MATRIX_OUT;
  if (out) writeFileSync(out, `| attack | exit · requests |\n|---|---|\n${outcomes.join('\n')}\n`);
});

describe('a hostile service', () => {
  for (const attack of attacks) {
    it(attack.name, async () => {
      const clock = new FakeClock();
      const stub = await stubServer((request, response, index) => attack.serve(request, response, index, clock));
      try {
        const result = await against(stub.baseUrl)(attack.args, { clock, env: attack.env });
        expect(result.exitCode, result.stderr).toBe(attack.exit);
        for (const says of attack.says) expect(result.stderr).toMatch(says);
        expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|this is a bug/);
        if (attack.stdout) attack.stdout(result.stdout);
        else expect(result.stdout).toBe('');
        expect(stub.requests.length).toBeLessThanOrEqual(attack.maxRequests ?? 1);
        attack.also?.(result, clock);
        outcomes.push(`| ${attack.name} | ${result.exitCode} · ${stub.requests.length} req |`);
      } finally {
        await stub.close();
      }
    });
  }
});

describe('timeline --follow against a service that hands back the same events', () => {
  it('prints each event once and does not poll fast on a has_more_newer that brings nothing new', async () => {
    const stop = new AbortController();
    const clock = new FakeClock();
    const stub = await stubServer((request, response, index) => {
      if (index >= 12) stop.abort();
      if (request.url.includes('/processing-status/')) return sendJson(response, 200, { processing_active: false });
      sendJson(response, 200, timelineWindow([event('a'), event('b')], 'b'));
    });
    try {
      const result = await against(stub.baseUrl)(['persistent', 'timeline', TASK_ID, '--follow', '--jsonl'], { clock, signal: stop.signal });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).cursor)).toEqual(['a', 'b']);
      // Idle and nothing new: the polls back off instead of staying at the fast 0.5 s.
      expect(Math.max(...clock.sleeps)).toBeGreaterThan(500);
    } finally {
      await stub.close();
    }
  });
});

describe('a config.json that is a symbolic link (dotfile managers)', () => {
  /** A config home whose agentctl/config.json links to `target` (relative links resolve from the link's folder). */
  function linkedConfig(target: (home: string) => string): { home: string; link: string; target: string } {
    const home = tempDir();
    mkdirSync(join(home, 'agentctl'), { recursive: true });
    const link = join(home, 'agentctl', 'config.json');
    const to = target(home);
    symlinkSync(to, link);
    return { home, link, target: join(home, 'agentctl', to) };
  }
  const setBase = (home: string) => agentctl(['config', 'set', 'base-url', 'http://127.0.0.1:9/api/v1'], { configHome: home });

  it('is written through: the target changes (0600), the link stays', async () => {
    const { home, link, target } = linkedConfig((home) => {
      mkdirSync(join(home, 'dotfiles'));
      writeFileSync(join(home, 'dotfiles', 'config.json'), '{"profiles": {"default": {"api-key": "kept-key"}}}', { mode: 0o644 });
      return '../dotfiles/config.json';
    });
    const result = await setBase(home);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../dotfiles/config.json');
    expect(JSON.parse(readFileSync(target, 'utf8')).profiles.default).toEqual({ 'api-key': 'kept-key', 'base-url': 'http://127.0.0.1:9/api/v1' });
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it('a link to a file not made yet makes it there', async () => {
    const { home, link, target } = linkedConfig((home) => {
      mkdirSync(join(home, 'dotfiles'));
      return '../dotfiles/config.json';
    });
    const result = await setBase(home);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8')).profiles.default['base-url']).toBe('http://127.0.0.1:9/api/v1');
  });

  it('a link into a folder that is gone is refused with where it points, and the link stays', async () => {
    const { home, link } = linkedConfig(() => '../gone/config.json');
    const result = await setBase(home);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cannot write the config file .*config\.json, a symbolic link to .*gone\/config\.json: its folder does not exist/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  // Root writes anywhere: a folder that refuses new files can only be shown to someone else.
  it.skipIf(process.getuid?.() === 0)('a target in a folder that takes no new file is rewritten in place', async () => {
    const { home, link, target } = linkedConfig((home) => {
      mkdirSync(join(home, 'store'));
      writeFileSync(join(home, 'store', 'config.json'), '{"profiles": {}}', { mode: 0o644 });
      chmodSync(join(home, 'store'), 0o500);
      return '../store/config.json';
    });
    try {
      const result = await setBase(home);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(JSON.parse(readFileSync(target, 'utf8')).profiles.default['base-url']).toBe('http://127.0.0.1:9/api/v1');
      expect(statSync(target).mode & 0o777).toBe(0o600);
    } finally {
      chmodSync(join(home, 'store'), 0o700);
    }
  });
});
