// Issue 13's reliability items, one test each, through the fault proxy in front of the in-process
// emulator on a fake clock (outages of minutes take no real time).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';
import { FaultProxy, type FaultPlan } from './proxy.js';

let emulator: RunningEmulator;
let proxy: FaultProxy | undefined;
/** One clock for the emulator and the commands: tasks take 5 s of fake time, outages heal in no real time. */
const clock = new FakeClock();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 5000, clock });
});
afterAll(() => emulator?.close());
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

async function faulty(plan?: FaultPlan) {
  proxy = new FaultProxy(new URL(emulator.baseUrl), clock);
  await proxy.start();
  await proxy.use(plan);
  return { run: (args: string[]) => against(proxy?.baseUrl as string)(args, { clock }), proxy };
}

const createTask = (prompt: string) => apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt });
const pollOf = (id: string) => (method: string, path: string) => method === 'GET' && path === `/tasks/browser-use/${id}/`;

describe('waits ride out the network (item 1)', () => {
  it('six 502 pages in a row do not end `tasks wait`', async () => {
    const { id } = await createTask('six bad gateways');
    const { run } = await faulty({ kind: '502 html', match: pollOf(id), skip: 1, count: 6 });
    const result = await run(['tasks', 'wait', id, '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id, status: 'completed' });
    expect(result.stderr).toMatch(/service unreachable since \d\d:\d\d:\d\d, retrying \(the service answered 502 \(bad gateway\)/);
    expect(result.stderr).toMatch(/service reachable again after \d/);
  });

  it('a single 500 does not end `tasks create --follow`', async () => {
    const poll = (method: string, path: string) => method === 'GET' && /^\/tasks\/browser-use\/[^/]+\/$/.test(path);
    const { run } = await faulty({ kind: '500', match: poll, count: 1 });
    const result = await run(['tasks', 'create', 'one 500', '--follow', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).status).toBe('completed');
  });

  it('gives up after --max-outage with exit 8, when it started, and the resume command', async () => {
    const { id } = await createTask('[hang] unreachable');
    const { run } = await faulty({ kind: 'outage', match: pollOf(id), skip: 1, downMs: 3_600_000 });
    const result = await run(['tasks', 'wait', id, '--max-outage', '30']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/service unreachable since \d\d:\d\d:\d\d, retrying/);
    expect(result.stderr).toMatch(/Stopped waiting: the service has been unreachable since \d\d:\d\d:\d\d \(30 s; --max-outage is 30s\)/);
    expect(result.stderr).toContain(`agentctl tasks wait ${id}`);
    expect(Math.max(...clock.sleeps.slice(-10))).toBeLessThanOrEqual(10_000);
  });

  it('the wait\'s own deadline ends an outage with exit 7 and the id on stdout', async () => {
    const { id } = await createTask('[hang] deadline in an outage');
    const { run } = await faulty({ kind: 'outage', match: pollOf(id), skip: 1, downMs: 3_600_000 });
    const result = await run(['tasks', 'wait', id, '--timeout', '20']);
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe(`${id}\n`);
    expect(result.stderr).toContain(`Resume with:\n  agentctl tasks wait ${id}`);
  });
});

describe('the result endpoint (item 2)', () => {
  it('one 500 from /result/ is retried: the result is printed', async () => {
    const { id } = await createTask('result hiccup');
    const { run } = await faulty({ kind: '500', match: (method, path) => path === `/tasks/browser-use/${id}/result/`, count: 1 });
    const result = await run(['tasks', 'wait', id, '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id, status: 'completed' });
  });
});

describe('the new task id is out at once (item 3)', () => {
  it('create --follow --json whose wait fails still names the task in its JSON error, with the resume command', async () => {
    // Polls are refused for ever: the wait gives up, but the id was printed the moment the create answered.
    const poll = (method: string, path: string) => method === 'GET' && /^\/tasks\/browser-use\/[^/]+\/$/.test(path);
    const { run } = await faulty({ kind: 'outage', match: poll, routeOnly: true, downMs: 3_600_000 });
    const result = await run(['tasks', 'create', '[hang] id please', '--follow', '--json', '--max-outage', '5']);
    expect(result.exitCode).toBe(8);
    // With --json stderr carries no human "Created task" line (issue 47): the JSON error names the task.
    expect(result.stderr).not.toContain('Created task');
    const error = JSON.parse(result.stderr.trim().split('\n').at(-1)!).error as { code: string; message: string };
    expect(error.code).toBe('network');
    const id = /Task ([0-9a-f-]{36}) keeps running/.exec(error.message)?.[1];
    expect(id).toBeDefined();
    expect(error.message).toContain(`agentctl tasks wait ${id}`);
    expect(result.stdout).toBe('');
  });
});

describe('one meaning of the wait limit (item 4)', () => {
  it('create --follow --timeout 4 on a task that never ends exits 7 after 4 s with the resume command', async () => {
    const { run } = await faulty();
    const started = clock.now();
    const result = await run(['tasks', 'create', '[hang] never ends', '--follow', '--timeout', '4']);
    expect(result.exitCode).toBe(7);
    expect(clock.now() - started).toBeLessThanOrEqual(4000);
    expect(result.stderr).toMatch(/Task [0-9a-f-]{36} is still (pending|in_progress) after 4 s \(--timeout\)\. Resume with:\n {2}agentctl tasks wait/);
  });

  it('so does create --webhook-listen --timeout: exit 7 when neither the webhook nor the fallback poll saw the end', async () => {
    const { run } = await faulty();
    const result = await run(['tasks', 'create', '[hang] no callback', '--webhook-listen', '--timeout', '30', '--fallback-interval', '10']);
    expect(result.exitCode, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/Task ([0-9a-f-]{36}) is still (pending|in_progress) at the --timeout\. Resume with:\n {2}agentctl tasks wait \1/);
  });

  it('tasks wait --timeout means the same: the whole wait', async () => {
    const { id } = await createTask('[hang] wait limit');
    const { run } = await faulty();
    const result = await run(['tasks', 'wait', id, '--timeout', '4', '--json']);
    expect(result.exitCode).toBe(7);
    expect(JSON.parse(result.stdout).id).toBe(id);
  });
});

describe('--all that fails part-way (item 5)', () => {
  let agentId: string;
  beforeAll(async () => {
    agentId = (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/browser-use/', { name: 'pages' })).id;
    for (let i = 0; i < 25; i++) await apiRequest(emulator.baseUrl, 'POST', `/agents/browser-use/${agentId}/tasks/`, { prompt: `[hang] ${i}` });
  });
  const page3 = (method: string, path: string) => method === 'GET' && /page=3/.test(path);

  it('page 3 of 3 failing for good: a closed JSON array of what was read, where it stopped, exit 1', async () => {
    const { run, proxy: faults } = await faulty({ kind: '500', match: page3, count: Infinity });
    const result = await run(['tasks', 'list', '--agent', agentId, '--all', '--page-size', '10', '--json']);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toHaveLength(20);
    expect(result.stderr).toMatch(/the list is partial: it stopped at page 3 of 3, after 20 items: the service answered 500/);
    expect(result.stderr).toMatch(/read on page by page from --page 3/);
    // The page was retried like any GET before the walk gave up.
    expect(faults.seen.filter((request) => /page=3/.test(request.path))).toHaveLength(5);
  });

  it('with --jsonl every line printed is a whole item', async () => {
    const { run } = await faulty({ kind: 'reset', match: page3, count: Infinity });
    const result = await run(['tasks', 'list', '--agent', agentId, '--all', '--page-size', '10', '--jsonl']);
    expect(result.exitCode).toBe(8);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toHaveLength(20);
  });

  it('a fault that passes leaves a complete list, in the service\'s order', async () => {
    const { run } = await faulty({ kind: '502 html', match: page3, count: 2 });
    const result = await run(['tasks', 'list', '--agent', agentId, '--all', '--page-size', '10', '--jsonl']);
    const direct = await apiRequest<{ results: { id: string }[] }>(emulator.baseUrl, 'GET', `/agents/browser-use/${agentId}/tasks/?page_size=100`);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(direct.results.map((task) => task.id));
  });
});

describe('the API key stays on the configured host (item 6)', () => {
  it.each(['\\\\HOST/x', '\\/HOST/x', 'https:/HOST/x', 'http:/\\HOST/x', '\t//HOST/x'])('api GET %j is refused before any request', async (path) => {
    const elsewhere = await stubServer((_request, response) => sendJson(response, 200, { stolen: true }));
    const home = await stubServer((_request, response) => sendJson(response, 200, {}));
    try {
      const host = new URL(elsewhere.baseUrl).host;
      const result = await against(home.baseUrl, 'secret-key-123')(['api', 'GET', path.replace('HOST', host)]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/refusing to send the API key elsewhere/);
      expect(elsewhere.requests).toHaveLength(0);
      expect(home.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
      await home.close();
    }
  });

  it('a next link to another host is not followed (--all and api --paginate)', async () => {
    const elsewhere = await stubServer((_request, response) => sendJson(response, 200, { count: 0, next: null, previous: null, results: [] }));
    const evilHost = new URL(elsewhere.baseUrl).host;
    const home = await stubServer((_request, response) =>
      sendJson(response, 200, { count: 2, next: `\\\\${evilHost}/api/v1/agents/browser-use/?page=2`, previous: null, results: [{ id: 'a', name: 'one', created_at: '2026-05-01T08:00:00Z' }] }),
    );
    try {
      for (const args of [['agents', 'list', '--all', '--json'], ['api', 'GET', '/agents/browser-use/', '--paginate']]) {
        const result = await against(home.baseUrl, 'secret-key-123')(args);
        expect(result.exitCode, result.stderr).toBe(1);
        expect(result.stderr).toMatch(/refusing to follow the service's next link/);
        expect(JSON.parse(result.stdout)).toHaveLength(1);
      }
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
      await home.close();
    }
  });
});

describe('a list that changes while --all reads it', () => {
  it('leaves out what a moved page repeats and says on stderr that the list changed (--all and api --paginate)', async () => {
    // Newest first, two per page: one task is created after page 1 was read, so page 2 starts with
    // the last item of page 1 again.
    const task = (id: string) => ({ id, status: 'completed' });
    const pages: Record<string, object> = {
      '1': { count: 4, next: '?page=2&page_size=2', previous: null, results: [task('d'), task('c')] },
      '2': { count: 5, next: '?page=3&page_size=2', previous: null, results: [task('c'), task('b')] },
      '3': { count: 5, next: null, previous: null, results: [task('a')] },
    };
    const stub = await stubServer((request, response) => {
      const url = new URL(request.url, 'http://stub');
      const page = pages[url.searchParams.get('page') ?? '1'];
      const next = (page as { next: string | null }).next;
      sendJson(response, 200, { ...page, next: next && `http://${request.headers.host}${url.pathname}${next}` });
    });
    try {
      const cli = against(stub.baseUrl);
      const list = await cli(['tasks', 'list', '--all', '--jsonl', '--page-size', '2']);
      const raw = await cli(['api', 'GET', '/tasks/browser-use/?page_size=2', '--paginate']);
      expect(list.exitCode, list.stderr).toBe(0);
      expect(list.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['d', 'c', 'b', 'a']);
      expect(raw.exitCode, raw.stderr).toBe(0);
      expect((JSON.parse(raw.stdout) as Array<{ id: string }>).map((item) => item.id)).toEqual(['d', 'c', 'b', 'a']);
      for (const { stderr } of [list, raw]) {
        expect(stderr).toContain('the list changed while it was read (4 -> 5 items); 1 item that a page repeated from the page before was printed once');
      }
    } finally {
      await stub.close();
    }
  });

  /** An honest list of `start` tasks that gains `growth` after each answer; `count` and `next` always right. */
  const growingList = (start: number, growth: number, newestFirst: boolean) => {
    let total = start;
    return stubServer((request, response) => {
      const url = new URL(request.url, 'http://stub');
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 10);
      const positions = Array.from({ length: Math.max(0, Math.min(size, total - (page - 1) * size)) }, (_, i) => (page - 1) * size + i);
      const results = positions.map((p) => ({ id: `t${newestFirst ? total - p : p + 1}`, status: 'completed' }));
      const next = page * size < total ? `http://${request.headers.host}${url.pathname}?page=${page + 1}&page_size=${size}` : null;
      sendJson(response, 200, { count: total, next, previous: null, results });
      total += growth;
    });
  };

  it('reads an honest list that grows by more than a page while read to its end (oldest first)', async () => {
    for (const [start, growth, pageSize] of [[25, 7, 10], [250, 70, 100]] as const) {
      const stub = await growingList(start, growth, false);
      try {
        const result = await against(stub.baseUrl)(['tasks', 'list', '--all', '--page-size', String(pageSize), '--json']);
        expect(result.exitCode, result.stderr).toBe(0);
        const ids = (JSON.parse(result.stdout) as Array<{ id: string }>).map((item) => item.id);
        // Every task from the first to the last the final page held, once and in order.
        expect(ids.length).toBeGreaterThan(start + growth);
        expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => `t${i + 1}`));
        expect(result.stderr).toMatch(new RegExp(`^warning: the list changed while it was read \\(${start} -> \\d+ items\\)`));
        expect(result.stderr).not.toMatch(/partial|tell its operators/);
      } finally {
        await stub.close();
      }
    }
  });

  it('a list growing faster than it is read (newest first) stops as partial without blaming the service or vouching for the output', async () => {
    const stub = await growingList(25, 12, true);
    try {
      const result = await against(stub.baseUrl)(['tasks', 'list', '--all', '--page-size', '10', '--jsonl']);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/the list is partial: .*the list kept growing while it was read/);
      expect(result.stderr).toMatch(/the list changed while it was read, so what was printed may lack items/);
      expect(result.stderr).not.toMatch(/tell its operators|correct up to there/);
      expect(stub.requests.length).toBeLessThanOrEqual(40);
    } finally {
      await stub.close();
    }
  });

  it('says nothing, and leaves every item in, when the list does not change', async () => {
    const stub = await stubServer((_request, response) =>
      sendJson(response, 200, { count: 2, next: null, previous: null, results: [{ id: 'x', status: 'completed' }, { id: 'x', status: 'completed' }] }),
    );
    try {
      const result = await against(stub.baseUrl)(['tasks', 'list', '--all', '--jsonl']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(2);
      expect(result.stderr).toBe('');
    } finally {
      await stub.close();
    }
  });
});

describe('--verbose masks a secret the service echoes (item 8)', () => {
  it('a secret with " and \\ is masked in its JSON-escaped form', async () => {
    const secret = 'pa"ss\\wörd/42';
    const echo = await stubServer((request, response) => sendJson(response, 400, { echoed: JSON.parse(request.body) }));
    try {
      const result = await against(echo.baseUrl)(['tasks', 'create', 'log in', '--secret', 'https://shop.example', `PASSWORD=${secret}`, '--verbose']);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('< {"echoed"');
      for (const form of [secret, JSON.stringify(secret).slice(1, -1), 'pa\\"ss\\\\w\\u00f6rd']) expect(result.stderr).not.toContain(form);
    } finally {
      await echo.close();
    }
  });
});

describe('messages that say what to do (item 14)', () => {
  it('a 429 with Retry-After 3600 says how long and until when', async () => {
    const limited = await stubServer((_request, response) => sendJson(response, 429, { detail: 'Request was throttled.' }, { 'retry-after': '3600' }));
    try {
      const result = await against(limited.baseUrl)(['tasks', 'list'], { clock: new FakeClock(Date.parse('2026-05-01T08:00:00')) });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('hint: the service is rate limiting and asks to wait 1 h: try again at 09:00:00 or later');
      expect(limited.requests).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });

  it('a reset on a create says it may have been carried out and how to check', async () => {
    const { run, proxy: faults } = await faulty({ kind: 'reset', match: (method) => method === 'POST', count: 1 });
    const result = await run(['tasks', 'create', 'reset me']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/error: the connection broke during POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/tasks\/browser-use\//);
    expect(result.stderr).toContain('hint: the request may still have been carried out; check before sending it again: `agentctl tasks list`');
    expect(faults.carriedOut('POST', /tasks/)).toBe(1);
    expect(faults.seen.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
