// agentctl/client's promises beyond the documented example: the command line's retries, Retry-After,
// timeouts, outages, cancellation and redaction, and inputs refused before any request, naming the field.
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, InputError, NetworkError, PartialListError, WaitTimeoutError, createClient, type AgentctlClient } from '../../src/client/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { networkAddress, sendJson, stubServer } from '../helpers/stub-server.js';

const KEY = 'library-test-key-0123';
const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const TASK = { id: ID, status: 'pending' };

type Stub = Awaited<ReturnType<typeof stubServer>>;
const stubs: Stub[] = [];
async function stub(handler: Parameters<typeof stubServer>[0], host?: string): Promise<Stub> {
  const server = await stubServer(handler, host);
  stubs.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((server) => server.close()));
});

describe('requests', () => {
  it('retries a throttled GET after the Retry-After the service asked for', async () => {
    const clock = new FakeClock();
    const server = await stub((_request, response, index) => (index === 0 ? sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '3' }) : sendJson(response, 200, TASK)));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, clock });
    expect(await client.tasks.get(ID)).toMatchObject({ id: ID, status: 'pending' });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(3000);
  });

  it('never sends a create twice: a 503 on POST is the caller’s to judge', async () => {
    const server = await stub((_request, response) => sendJson(response, 503, { detail: 'down' }));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, clock: new FakeClock() });
    const error = await client.tasks.create({ prompt: 'Book a table' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('gives up on a request that does not answer within timeoutMs', async () => {
    const server = await stub(() => undefined); // never answers
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 100, retries: 0 });
    const error = await client.tasks.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/timed out/);
  });

  it('ends a wait at its timeoutMs even while a poll hangs', async () => {
    const server = await stub((_request, response, index) => (index === 0 ? sendJson(response, 200, TASK) : undefined)); // then never answers
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const error = await client.tasks.wait(ID, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ task: { status: 'pending' } });
  });

  it('stops every call at once when the client’s signal is aborted', async () => {
    const server = await stub(() => undefined);
    const controller = new AbortController();
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, signal: controller.signal });
    const pending = client.tasks.wait(ID);
    await new Promise<void>((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('adds no listener per request in flight to the client’s signal (Node warns of a leak past 10)', async () => {
    const server = await stub((_request, response) => setTimeout(() => sendJson(response, 200, TASK), 20));
    const controller = new AbortController();
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, signal: controller.signal });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await Promise.all(Array.from({ length: 20 }, () => client.tasks.get(ID)));
      await new Promise<void>((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(server.requests).toHaveLength(20);
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('keeps the API key and task secrets out of errors and traces', async () => {
    // A service that echoes the request back in its error, as some do.
    const server = await stub((request, response) => sendJson(response, 400, { detail: `bad request ${request.body} with key ${String(request.headers['x-api-key'])}` }));
    const lines: string[] = [];
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, trace: (line) => lines.push(line) });
    const error = await client.tasks.create({ prompt: 'Log in', secrets: { 'https://example.com': { PASSWORD: 'hunter2-very-secret' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const told = `${(error as Error).message}\n${(error as Error).stack}\n${lines.join('\n')}`;
    expect(told).toContain('***');
    expect(told).not.toContain('hunter2-very-secret');
    expect(told).not.toContain(KEY);
  });
});

/** Everything a user could see of an error: its fields, its JSON, console.error's and util.inspect's text. */
function everyViewOf(error: unknown): Record<string, string> {
  const logged: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (logged.push(chunk.toString()), done()) });
  new Console({ stdout: sink, stderr: sink }).error(error);
  const { body, lines, cause } = error as { body?: unknown; lines?: string[]; cause?: unknown };
  return {
    body: JSON.stringify(body) ?? '',
    lines: JSON.stringify(lines) ?? '',
    json: JSON.stringify(error),
    inspect: inspect(error, { depth: Infinity }),
    'console.error': logged.join(''),
    cause: inspect(cause, { depth: Infinity }),
  };
}

describe('a service that echoes the API key back', () => {
  const echo = (key: string) => ({
    detail: `no such key ${key}`,
    [`key_${key}`]: [`is ${key}`],
    nested: { deep: [{ api_key: 'ESCAPED' }] },
    headers: { 'x-api-key': key },
  });
  /** The echo as a JSON encoder may write it: one key with its first letter escaped, which no search of the raw text finds. */
  const echoText = (key: string) => JSON.stringify(echo(key)).replace('"ESCAPED"', `"\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${key.slice(1)}"`);
  const stubEcho = (status: number) =>
    stub((request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(echoText(String(request.headers['x-api-key'])));
    });

  it('keeps it out of .body, .lines, JSON.stringify, util.inspect and console.error', async () => {
    const server = await stubEcho(400);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const error = await client.tasks.create({ prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const views = everyViewOf(error);
    expect(views.inspect).toContain('***'); // the echo is there, redacted
    for (const [view, text] of Object.entries(views)) expect(text, view).not.toContain(KEY);
    expect((error as ApiError).lines).toContain('no such key ***');
    expect(JSON.parse(echoText(KEY)).nested.deep[0].api_key).toBe(KEY); // the stand-in does escape it
  });

  it('keeps it out of a cause: a list that stopped at a page echoing it', async () => {
    const server = await stub((request, response, index) => {
      if (index === 0) return sendJson(response, 200, { count: 2, next: `http://${request.headers.host}/api/v1/tasks/browser-use/?page=2`, previous: null, results: [{ ...TASK }] });
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(echoText(String(request.headers['x-api-key'])));
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, retries: 0 });
    const error = await (async () => {
      for await (const _task of client.tasks.list()) void _task;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialListError);
    expect((error as PartialListError).cause).toBeInstanceOf(ApiError);
    for (const [view, text] of Object.entries(everyViewOf(error))) expect(text, view).not.toContain(KEY);
  });
});

describe("errors in the library's words", () => {
  /** A flag (--timeout) or a command of the command line (`agentctl auth status`): neither exists for a library user. */
  const FACE_WORDS = /(?:^|[^\w-])--[a-z]|`agentctl |\bagentctl (?:auth|tasks|agents|persistent|config|doctor|emulator)\b/;
  const words = (error: unknown) => `${(error as Error).message}\nhint: ${String((error as { hint?: string }).hint)}`;

  it('a timeout, a refused key, an answer too large, a redirect and a partial list say what to do naming no flag or command', async () => {
    const server = await stub((request, response, index) => {
      if (request.url.includes('hang')) return; // never answers
      if (request.url.includes('key')) return sendJson(response, 401, { detail: 'Invalid API key' });
      if (request.url.includes('big')) return sendJson(response, 200, { id: ID, status: 'pending', padding: 'x'.repeat(2000) });
      if (request.url.includes('moved')) return void response.writeHead(301, { location: `http://${request.headers.host}/v2/api/v1/tasks/browser-use/` }).end();
      if (index > 0 && request.url.includes('page=2')) return sendJson(response, 500, { detail: 'boom' });
      return sendJson(response, 200, { count: 2, next: `http://${request.headers.host}/api/v1/tasks/browser-use/?page=2`, previous: null, results: [{ ...TASK }] });
    });
    const at = (path: string, options: Partial<Parameters<typeof createClient>[0]> = {}) =>
      createClient({ baseUrl: `${server.baseUrl}/${path}`, apiKey: KEY, retries: 0, ...options });
    const errors = {
      timeout: await at('hang', { timeoutMs: 50 }).tasks.get(ID).catch((e: unknown) => e),
      auth: await at('key').tasks.get(ID).catch((e: unknown) => e),
      large: await at('big', { maxResponseBytes: 1000 }).tasks.get(ID).catch((e: unknown) => e),
      moved: await at('moved').tasks.get(ID).catch((e: unknown) => e),
      partial: await (async () => {
        for await (const _task of at('list').tasks.list()) void _task;
      })().catch((e: unknown) => e),
    };
    expect(errors.timeout).toBeInstanceOf(NetworkError);
    expect(errors.auth).toBeInstanceOf(ApiError);
    expect(errors.partial).toBeInstanceOf(PartialListError);
    for (const [what, error] of Object.entries(errors)) {
      expect((error as { hint?: string }).hint, what).toBeTruthy();
      expect(words(error), what).not.toMatch(FACE_WORDS);
    }
    expect((errors.auth as ApiError).hint).toBe('check the API key');
    expect((errors.partial as PartialListError).hint).toContain('read on page by page from page 2');
  });
});

describe('inputs', () => {
  it.each([
    ['baseUrl', () => createClient({ baseUrl: 'not a url', apiKey: KEY })],
    ['apiKey', () => createClient({ baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: 'two words' })],
    ['timeoutMs', () => createClient({ baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: KEY, timeoutMs: -1 })],
  ])('createClient refuses a bad %s at once', (field, make) => {
    expect(make).toThrow(InputError);
    expect(() => make()).toThrow(expect.objectContaining({ field }));
  });

  // A stub on this machine's network address stands for another machine (none on a loopback-only machine).
  it.skipIf(networkAddress === undefined)('refuses a plain http:// baseUrl to another machine (the key in clear text) unless allowInsecureHttp', async () => {
    const server = await stub((_request, response) => sendJson(response, 200, TASK), networkAddress);
    const remote = server.baseUrl;
    let refusal: unknown;
    try {
      createClient({ baseUrl: remote, apiKey: KEY });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InputError);
    expect(refusal).toMatchObject({ field: 'baseUrl' });
    expect((refusal as Error).message).toContain(`refusing to send the API key in clear text to ${new URL(remote).host}`);
    expect((refusal as Error).message).toContain('allowInsecureHttp: true');
    expect((refusal as Error).message).not.toMatch(/--|agentctl /); // the library's words, not the command line's
    expect(server.requests).toHaveLength(0);
    expect(await createClient({ baseUrl: remote, apiKey: KEY, allowInsecureHttp: true }).tasks.get(ID)).toMatchObject({ id: ID });
    expect(createClient({ baseUrl: 'http://localhost:8000/api/v1', apiKey: KEY }).baseUrl).toBe('http://localhost:8000/api/v1');
  });

  it('refuses bad inputs before any request, naming the field and what is wrong', async () => {
    const server = await stub((_request, response) => sendJson(response, 200, TASK));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY });
    const refusals: Array<[string, () => Promise<unknown>]> = [
      ['id', () => client.tasks.get('42')],
      ['agentId', () => client.tasks.get(ID, { agentId: 'agent-7' })],
      ['prompt', () => client.tasks.create({ prompt: '  ' })],
      ['outputSchema', () => client.tasks.create({ prompt: 'x', outputSchema: [] as unknown as Record<string, unknown> })],
      ['secrets', () => client.tasks.create({ prompt: 'x', secrets: { 'https://example.com': { 'bad key': 'v' } } })],
      ['webhook', () => client.tasks.create({ prompt: 'x', webhook: 'not a url' })],
      ['wait', () => client.tasks.create({ prompt: 'x', wait: 5000 })],
      ['timeoutMs', () => client.tasks.wait(ID, { timeoutMs: 0 })],
      ['expression', () => client.schedule.preview('@every never')],
      ['schedule', () => client.persistent.create({ name: 'Scout', charter: 'Watch prices', schedule: '61 * * * *' })],
      ['life_state', () => client.persistent.update(ID, { life_state: 'asleep' as 'active' })],
      ['channel', () => client.persistent.message(ID, { channel: 'pigeon' as 'web', sender: 'me', body: 'hi' })],
      ['cursor', () => client.persistent.timeline(ID, { direction: 'older' })],
      ['name', () => client.agents.create({ name: '' })],
    ];
    for (const [field, call] of refusals) {
      const error = await call().catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(InputError);
      expect((error as InputError).field, (error as Error).message).toBe(field);
      expect((error as InputError).problem).not.toMatch(/--|agentctl /); // no flag, no command
    }
    expect(() => client.tasks.list({ pageSize: 500 })).toThrow(expect.objectContaining({ field: 'pageSize' }));
    expect(server.requests).toHaveLength(0);
  });
});

describe('against the emulator', () => {
  let emulator: RunningEmulator;
  let client: AgentctlClient;
  const clock = new FakeClock();

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, clock, seed: 3, taskDurationMs: 1000 });
    client = createClient({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key', clock });
  });
  afterAll(() => emulator.close());

  it('ends a wait at its timeoutMs with the task as last seen', async () => {
    const task = await client.tasks.create({ prompt: 'Keep watching [hang]' });
    const error = await client.tasks.wait(task.id, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ taskId: task.id, code: 'wait_timed_out', exitCode: 7, task: { status: 'in_progress' } });
    expect(await client.tasks.cancel(task.id)).toMatchObject({ status: expect.any(String) });
  });

  it('gives up a wait on an outage longer than maxOutageMs, with the last failure', async () => {
    const task = await client.tasks.create({ prompt: 'Find a hotel in Oslo' });
    emulator.faults.set('GET /tasks/* => 503@100%');
    try {
      const error = await client.tasks.wait(task.id, { maxOutageMs: 20_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503 });
    } finally {
      emulator.faults.clear();
    }
  });

  it('reads only the pages a loop asks for: leaving it early stops the walk', async () => {
    emulator.reset();
    for (let i = 0; i < 7; i++) await client.tasks.create({ prompt: `task ${i}` });
    const all: string[] = [];
    for await (const task of client.tasks.list({ pageSize: 3 })) all.push(task.id);
    expect(new Set(all).size).toBe(7);
    const before = emulator.requests.length;
    for await (const task of client.tasks.list({ pageSize: 1 })) {
      expect(task.id).toBe(all[0]);
      break;
    }
    // The first page, and at most the window of pages fetched ahead of the loop.
    expect(emulator.requests.length - before).toBeLessThanOrEqual(9);
  });

  it('manages legacy agents and the tasks under one', async () => {
    const agent = await client.agents.create({ name: 'Travel desk' });
    const task = await client.tasks.create({ prompt: 'Find a train to Bergen', agentId: agent.id });
    expect(await client.tasks.get(task.id, { agentId: agent.id })).toMatchObject({ id: task.id });
    expect((await client.agents.update(agent.id, { name: 'Travel team' })).name).toBe('Travel team');
    const names: string[] = [];
    for await (const each of client.agents.list()) names.push(each.name);
    expect(names).toContain('Travel team');
    await client.agents.delete(agent.id);
    await expect(client.agents.get(agent.id)).rejects.toMatchObject({ name: 'ApiError', status: 404 });
  });

  it('runs a persistent agent: status, a window of its timeline, and the service’s schedule preview', async () => {
    const agent = await client.persistent.create({ name: 'Price scout', charter: 'Watch the price of a flight to Oslo.', schedule: '@daily' });
    expect(await client.persistent.status(agent.id)).toMatchObject({ processing_active: expect.any(Boolean) });
    expect(await client.persistent.webTasks(agent.id, { status: 'failed' })).toEqual([]);
    const window = await client.persistent.timeline(agent.id, { limit: 1 });
    expect(window.events).toHaveLength(1);
    const preview = await client.schedule.preview('@every 2h', { agentId: agent.id, count: 1, from: new Date('2026-01-01T00:00:00Z') });
    expect(preview).toMatchObject({ valid: true, next: ['2026-01-01T02:00:00.000Z'], service: { valid: true } });
    await client.persistent.delete(agent.id);
  });
});
