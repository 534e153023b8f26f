// `agentctl mcp`'s server, driven by the SDK's own Client over an in-memory transport, against the
// emulator on port 0.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { Redactor } from '../../src/api/redact.js';
import { systemClock, type Clock } from '../../src/contract/clock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createServer, type ServerOptions } from '../../src/mcp/server.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { fenced, testClient } from '../helpers/mcp.js';
import { agentctl, tempDir } from '../helpers/cli.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const KEY = 'mcp-test-key-123';
const SECRET = 'hunter2-very-secret';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 200, apiKey: KEY });
});
afterAll(() => emulator.close());

/** A connected Client for a server with these options, against `baseUrl`. */
async function connect(options: Partial<ServerOptions> = {}, baseUrl = emulator.baseUrl, env: Record<string, string> = {}, clock: Clock = systemClock) {
  const redactor = new Redactor();
  redactor.add(KEY);
  const api = new ApiClient({ baseUrl, apiKey: KEY, timeoutMs: 5000, userAgent: 'test', redactor, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1000 } });
  const server = createServer({ client: async () => api, redactor, clock, env }, { readOnly: false, maxWaitSeconds: 30, ...options });
  const client = testClient();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, call, close: () => client.close() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the test asserts them
const data = (result: CallToolResult) => result.structuredContent as Record<string, any>;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('agentctl mcp tools', () => {
  it('lists every tool with a JSON Schema, a description and annotations', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('tasks_create');
    expect(tools).toHaveLength(22);
    const get = tools.find((tool) => tool.name === 'tasks_get')!;
    expect(get.inputSchema.properties).toHaveProperty('id');
    expect(get.inputSchema.required).toEqual(['id']);
    expect(get.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    const del = tools.find((tool) => tool.name === 'agents_delete')!;
    expect(del.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    // The spec's destructiveHint false means only additive updates: overwriting or pausing an agent is not.
    for (const name of ['persistent_update', 'persistent_activate', 'persistent_deactivate', 'tasks_cancel'])
      expect(tools.find((tool) => tool.name === name)!.annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const name of ['tasks_create', 'agents_create', 'persistent_create', 'persistent_message'])
      expect(tools.find((tool) => tool.name === name)!.annotations, name).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.find((tool) => tool.name === 'tasks_wait')!.description).toContain('at most 30');
    await close();
  });

  it('offers only read tools with --read-only, and only the named ones with --tools', async () => {
    const readOnly = await connect({ readOnly: true });
    const names = (await readOnly.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('tasks_wait');
    expect(names).not.toContain('tasks_create');
    expect(names).not.toContain('agents_delete');
    // Not offered: a protocol error (-32602) that says why, not a tool result.
    await expect(readOnly.call('tasks_create', { prompt: 'x' })).rejects.toThrow(/not offered in read-only mode/);
    await readOnly.close();
    const allow = await connect({ allow: ['tasks_get', 'schedule_preview'] });
    expect((await allow.client.listTools()).tools.map((tool) => tool.name)).toEqual(['tasks_get', 'schedule_preview']);
    await allow.close();
  });

  it('creates a task, waits for it with progress, and reads its result as a tool and as a resource', async () => {
    const { client, call, close } = await connect();
    const created = await call('tasks_create', { prompt: 'Summarise example.com', output_schema: { type: 'object' } });
    expect(created.isError).toBeFalsy();
    const id = data(created).id as string;
    expect(text(created)).toContain(`Created task ${id}`);
    const progress: string[] = [];
    const waited = (await client.callTool({ name: 'tasks_wait', arguments: { id, timeout_seconds: 10 } }, undefined, {
      onprogress: (event) => progress.push(event.message ?? ''),
    })) as CallToolResult;
    expect(data(waited)).toMatchObject({ id, status: 'completed', finished: true });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatch(/^task (pending|in_progress|completed)/);
    expect(data(await call('tasks_get', { id }))).toMatchObject({ id, status: 'completed' });
    expect(data(await call('tasks_result', { id }))).toMatchObject({ status: 'completed' });
    const resource = await client.readResource({ uri: `agentctl://tasks/${id}/result` });
    expect(JSON.parse(fenced((resource.contents[0] as { text: string }).text))).toMatchObject({ status: 'completed' });
    await close();
  });

  it('answers a wait that runs out as unfinished, and stops a wait the client cancels', async () => {
    // The wait's pauses between polls, to see the client's cancellation reach them.
    const pauses: AbortSignal[] = [];
    const clock: Clock = { now: systemClock.now, sleep: (ms, signal) => (signal && pauses.push(signal), systemClock.sleep(ms, signal)) };
    const { client, call, close } = await connect({}, emulator.baseUrl, {}, clock);
    const id = data(await call('tasks_create', { prompt: '[hang] forever' })).id as string;
    const short = await call('tasks_wait', { id, timeout_seconds: 0.3 });
    expect(short.isError).toBeFalsy();
    expect(data(short)).toMatchObject({ id, finished: false, status: 'in_progress' });
    expect(text(short)).toContain('call tasks_wait again');

    const controller = new AbortController();
    let polls = 0;
    const waiting = client.callTool({ name: 'tasks_wait', arguments: { id } }, undefined, {
      signal: controller.signal,
      onprogress: () => {
        if (++polls === 2) controller.abort('enough');
      },
    });
    await expect(waiting).rejects.toThrow(/enough|abort/i);
    await eventually(() => pauses.at(-1)?.aborted || undefined, 5000, 'the server to stop polling');
    const before = emulator.state.tasks.size;
    expect(data(await call('tasks_get', { id })).status).toBe('in_progress'); // the task keeps running
    expect(emulator.state.tasks.size).toBe(before);
    const cancelled = await call('tasks_cancel', { id });
    expect(cancelled.isError).toBeFalsy();
    expect(data(await call('tasks_get', { id })).status).toBe('cancelled');
    await close();
  });

  it('lists tasks a page at a time, filtered, and says where the next page is', async () => {
    const { call, close } = await connect();
    for (let i = 0; i < 3; i++) await call('tasks_create', { prompt: `[fail] list me ${i}` });
    const page = await call('tasks_list', { page_size: 2 });
    expect(data(page).results).toHaveLength(2);
    expect(data(page).next_page).toBe(2);
    expect(text(page)).toContain('more with page 2');
    const failed = await call('tasks_list', { status: 'pending', page_size: 100 });
    expect(data(failed).results.every((task: { status: string }) => task.status === 'pending')).toBe(true);
    await close();
  });

  it('takes secrets by reference only (environment, file), and never shows them', async () => {
    const dir = tempDir();
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ 'https://shop.example': { PIN: 'file-secret-4242' } }));
    const { call, close } = await connect({ secrets: { envNames: ['SHOP_PASSWORD', 'NOT_SET'], envPrefixes: [], directory: dir } }, emulator.baseUrl, { SHOP_PASSWORD: SECRET });
    const created = await call('tasks_create', {
      prompt: `Log in to the shop`,
      secrets_env: [{ domain: 'https://shop.example', key: 'PASSWORD', env: 'SHOP_PASSWORD' }],
      secrets_file: file,
    });
    expect(created.isError).toBeFalsy();
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const inline = await call('tasks_create', { prompt: 'x', secrets: { 'https://a.example': { K: 'v' } } });
    expect(inline.isError).toBe(true);
    expect(data(inline).error).toMatchObject({ name: 'usage', exit_code: 2, field: 'secrets' });
    const missing = await call('tasks_create', { prompt: 'x', secrets_env: [{ domain: 'https://a.example', key: 'K', env: 'NOT_SET' }] });
    expect(data(missing).error).toMatchObject({ name: 'usage', field: 'secrets_env' });
    // A file that is not JSON (or not a secrets file at all: the key file, /etc/shadow): where, never what.
    const keyFile = join(dir, 'api-key');
    writeFileSync(keyFile, 'sk-live-0123456789abcdef\n');
    const notJson = await call('tasks_create', { prompt: 'x', secrets_file: keyFile });
    expect(data(notJson).error).toMatchObject({ name: 'usage', field: 'secrets_file' });
    expect(JSON.stringify(notJson)).toContain('unexpected character (line 1, column 1)');
    expect(JSON.stringify(notJson)).not.toContain('sk-live');
    // A service that echoes the key or a secret back: redacted in the result.
    const echo = await call('tasks_create', { prompt: `say ${SECRET} and ${KEY}`, secrets_env: [{ domain: 'https://shop.example', key: 'PASSWORD', env: 'SHOP_PASSWORD' }] });
    expect(JSON.stringify(echo)).not.toContain(SECRET);
    expect(JSON.stringify(echo)).not.toContain(KEY);
    await close();
  });

  it('manages browser-use agents', async () => {
    const { call, close } = await connect();
    const created = await call('agents_create', { name: 'scout' });
    const id = data(created).id as string;
    expect(data(await call('agents_get', { id })).name).toBe('scout');
    expect(data(await call('agents_list', {})).results.some((agent: { id: string }) => agent.id === id)).toBe(true);
    expect(data(await call('agents_delete', { id }))).toEqual({ id, deleted: true, tasks_deleted: 0 });
    const gone = await call('agents_get', { id });
    expect(gone.isError).toBe(true);
    expect(data(gone).error).toMatchObject({ name: 'not_found', exit_code: 4, status: 404 });
    const tooLong = await call('agents_create', { name: 'x'.repeat(300) });
    expect(data(tooLong).error).toMatchObject({ name: 'usage', field: 'name' });
    await close();
  });

  it('manages persistent agents: create, update, (de)activate, message, timeline, status, web tasks', async () => {
    const { call, close } = await connect();
    const created = await call('persistent_create', { name: 'watcher', charter: 'Watch prices', schedule: '@daily' });
    expect(created.isError).toBeFalsy();
    const id = data(created).id as string;
    expect(data(await call('persistent_get', { id })).schedule).toBe('@daily');
    expect(data(await call('persistent_list', {})).results.some((agent: { id: string }) => agent.id === id)).toBe(true);
    expect(data(await call('persistent_update', { id, schedule: null })).schedule ?? null).toBeNull();
    const badSchedule = await call('persistent_update', { id, schedule: '@reboot' });
    expect(data(badSchedule).error).toMatchObject({ name: 'usage', field: 'schedule' });
    expect(data(await call('persistent_update', { id })).error).toMatchObject({ name: 'usage' });
    expect(data(await call('persistent_deactivate', { id })).status).toBeDefined();
    expect(data(await call('persistent_get', { id })).is_active).toBe(false);
    await call('persistent_activate', { id });
    expect(data(await call('persistent_get', { id })).is_active).toBe(true);
    // On the web the service hears only the owner's web address, sent to the agent's (is_sender_whitelisted).
    const message = await call('persistent_message', { id, body: 'hello there', sender: `web://user/42/agent/${id}`, recipient: `web://agent/${id}` });
    expect(message.isError).toBeFalsy();
    const timeline = await call('persistent_timeline', { id, limit: 5 });
    expect(Array.isArray(data(timeline).events)).toBe(true);
    expect(text(timeline)).toContain('hello there');
    expect(data(await call('persistent_timeline', { id, cursor: 'abc' })).error).toMatchObject({ field: 'direction' });
    expect(data(await call('persistent_status', { id }))).toHaveProperty('processing_active');
    expect(Array.isArray(data(await call('persistent_web_tasks', { id })).results)).toBe(true);
    await close();
  });

  it('previews a schedule offline, and reads the grammar and exit codes as resources', async () => {
    const { client, call, close } = await connect({}, 'http://127.0.0.1:9/api/v1');
    const preview = await call('schedule_preview', { expression: '@every 1h 30m', count: 2, from: '2026-01-01T00:00:00Z' });
    expect(data(preview).next).toEqual(['2026-01-01T01:30:00.000Z', '2026-01-01T03:00:00.000Z']);
    const invalid = await call('schedule_preview', { expression: '* * * * * *' });
    expect(data(invalid).error).toMatchObject({ name: 'usage', field: 'expression' });
    // What the service's parser crashes on (its 500) is neither accepted nor refused: valid false, a warning.
    const crashing = await call('schedule_preview', { expression: '1,,2 * * * *' });
    expect(crashing.isError).toBeFalsy();
    expect(data(crashing)).toMatchObject({ valid: false, next: [], warning: expect.stringContaining('500') });
    expect(text(crashing)).toContain('Do not save it');
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['agentctl://schedule/grammar', 'agentctl://exit-codes']);
    const grammar = await client.readResource({ uri: 'agentctl://schedule/grammar' });
    expect((grammar.contents[0] as { text: string }).text).toContain('@every');
    const codes = JSON.parse(((await client.readResource({ uri: 'agentctl://exit-codes' })).contents[0] as { text: string }).text);
    expect(codes).toContainEqual({ exit_code: 4, name: 'not_found', meaning: 'record not found' });
    expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe('agentctl://tasks/{id}/result');
    await close();
  });
});

describe('agentctl mcp errors', () => {
  it('names the argument of invalid input, before any request', async () => {
    const { call, close } = await connect();
    const notUuid = await call('tasks_get', { id: 'nope' });
    expect(notUuid.isError).toBe(true);
    expect(data(notUuid).error).toMatchObject({ name: 'usage', exit_code: 2, field: 'id' });
    expect(text(notUuid)).toContain('id: is not a UUID');
    expect(data(await call('tasks_list', { page_size: 1000 })).error).toMatchObject({ field: 'page_size' });
    expect(data(await call('tasks_get', { id: '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', extra: 1 })).error).toMatchObject({ field: 'extra' });
    expect(data(await call('tasks_create', { prompt: '   ' })).error).toMatchObject({ name: 'usage', field: 'prompt' });
    expect(data(await call('tasks_create', { prompt: 'x', webhook: 'ftp://x' })).error).toMatchObject({ field: 'webhook' });
    await close();
  });

  it('says not found for an unknown id, and auth for a wrong key (without showing it)', async () => {
    const { call, close } = await connect();
    const missing = await call('tasks_get', { id: '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f' });
    expect(data(missing).error).toMatchObject({ name: 'not_found', exit_code: 4 });
    expect(text(missing)).not.toMatch(/\n\s+at /); // no stack
    await close();
    const wrong = await startEmulator({ port: 0, apiKey: 'another-key' });
    const other = await connect({}, wrong.baseUrl);
    const refused = await other.call('tasks_list');
    expect(data(refused).error).toMatchObject({ name: 'auth', exit_code: 3 });
    expect(JSON.stringify(refused)).not.toContain(KEY);
    await other.close();
    await wrong.close();
  });

  it('says when to retry when rate limited, and that the service is unreachable', async () => {
    const stub = await stubServer((_request, response) => sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '3600' }));
    const limited = await connect({}, stub.baseUrl);
    const answer = await limited.call('tasks_list');
    expect(data(answer).error).toMatchObject({ name: 'rate_limited', status: 429, retry_after_seconds: 3600 });
    expect(data(answer).error.retry_at).toMatch(/^\d{4}-/);
    await limited.close();
    await stub.close();
    const failing = await stubServer((_request, response) => sendJson(response, 500, { detail: 'database on fire' }));
    const broken = await connect({}, failing.baseUrl);
    const answered = await broken.call('agents_create', { name: 'x' });
    expect(data(answered).error).toMatchObject({ name: 'service_error', exit_code: 1, status: 500 });
    expect(text(answered)).toContain('database on fire');
    await broken.close();
    await failing.close();
    const down = await connect({}, 'http://127.0.0.1:9/api/v1');
    const unreachable = await down.call('tasks_get', { id: '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f' });
    expect(data(unreachable).error).toMatchObject({ name: 'network', exit_code: 8 });
    await down.close();
  });

  it('reports a bug in agentctl as one line, never a stack', async () => {
    const server = createServer(
      { client: async () => Promise.reject(new TypeError('boom')), redactor: new Redactor(), clock: systemClock, env: {} },
      { readOnly: false, maxWaitSeconds: 30 },
    );
    const client = testClient();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const answer = (await client.callTool({ name: 'tasks_list', arguments: {} })) as CallToolResult;
    expect(answer.isError).toBe(true);
    expect(data(answer).error).toMatchObject({ name: 'service_error', message: 'internal error in agentctl: boom' });
    expect(text(answer)).not.toContain(' at ');
    await client.close();
  });

  it('bounds a huge answer and says how to read less', async () => {
    const { call, close } = await connect();
    const task = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'y'.repeat(60_000) }, KEY);
    await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'z'.repeat(60_000) }, KEY);
    const page = await call('tasks_list', { page_size: 2 });
    expect(JSON.stringify(page.structuredContent).length).toBeLessThanOrEqual(100_000);
    expect(data(page).results[0].prompt).toContain('… [cut: 60000 characters]');
    expect(text(page)).toContain('ask for a smaller page_size');
    expect(data(await call('tasks_get', { id: task.id })).id).toBe(task.id);
    await close();
  });
});

describe('agentctl mcp command', () => {
  it('serves Streamable HTTP on loopback to clients with the bearer token only', async () => {
    const stop = new AbortController();
    let announce: (url: string) => void = () => undefined;
    const announced = new Promise<string>((resolve) => (announce = resolve));
    const token = 'token-of-the-test-0123456789';
    const running = agentctl(['mcp', '--http', '0'], {
      env: { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY, AGENTCTL_MCP_TOKEN: token },
      signal: stop.signal,
      onStdout: (out) => out.includes('\n') && announce(out.trim()),
    });
    const url = await announced;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const refused = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' }, body: '{}' });
    // A wrong token is refused as such, with no challenge that sends an OAuth client looking for a login.
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBeNull();
    const foreign = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' });
    expect(foreign.status).toBe(403);
    const client = testClient('http-test');
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const preview = (await client.callTool({ name: 'schedule_preview', arguments: { expression: '@daily', count: 1 } })) as CallToolResult;
    expect(data(preview).valid).toBe(true);
    const created = (await client.callTool({ name: 'tasks_create', arguments: { prompt: 'over http' } })) as CallToolResult;
    expect(data(created).status).toBe('pending');
    await client.close();
    stop.abort('SIGTERM');
    const result = await running;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Bearer token: the one in AGENTCTL_MCP_TOKEN');
    expect(result.stderr + result.stdout).not.toContain(token);
  });

  it('ends when stdin ends, and says what it is when started on a terminal', async () => {
    const result = await agentctl(['mcp'], { env: { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY }, terminal: { stdinIsTTY: true }, input: '' });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('speaks the Model Context Protocol on stdin and stdout');
  });

  it('answers every request piped in before stdin ended, and JSON-RPC errors for what is no call', async () => {
    const task = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'piped' }, KEY);
    const hanging = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: '[hang] forever' }, KEY);
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'nothing/here' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'tasks_get', arguments: { id: task.id.toUpperCase() } } }, // ids are sent lower-cased
      { jsonrpc: '2.0', id: 0, method: 'ping' },
      { jsonrpc: '2.0', id: '', method: 'ping' },
      { jsonrpc: '2.0', id: 6, method: 'ping', extra: 1 }, // the SDK takes no request with a key of its own: no answer, and no wait for one
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'tasks_wait', arguments: { id: hanging.id, timeout_seconds: 30 } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }, // nothing is sent for it, and nobody waits for it
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'schedule_preview', arguments: { expression: '@daily', count: 1, from: '2026-01-01T00:00:00Z' } } },
    ].map((line) => JSON.stringify(line));
    // A line that is not JSON, and a last line without its newline.
    const input = `${lines.slice(0, 3).join('\n')}\n{"jsonrpc": "2.0", "id": 9, "method": tools/list}\n${lines.slice(3).join('\n')}`;
    const result = await agentctl(['mcp'], { env: { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY }, input });
    expect(result.exitCode).toBe(0);
    const answers = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    expect([...byId.keys()].sort()).toEqual(['', 0, 1, 2, 3, 4, 5, undefined].sort());
    expect(byId.get(2).error).toEqual({ code: -32601, message: 'Method not found' }); // a method this server does not offer
    expect(byId.get(3).error).toMatchObject({ code: -32602, message: expect.stringMatching(/^tools\/call needs params.name/) });
    expect(byId.get(undefined).error.code).toBe(-32700); // the line that is not JSON: its id cannot be read
    expect(byId.get(4).result.structuredContent).toMatchObject({ id: task.id, prompt: 'piped' }); // answered although stdin had ended
    expect(byId.get(5).result.structuredContent.next).toEqual(['2026-01-02T00:00:00.000Z']); // the last line, without a newline
    expect(result.stderr).toContain('agentctl mcp: Parse error: the line is not JSON');
    expect(result.stderr).toContain('Unknown message type');
  });

  it('refuses unknown tools and an empty selection before serving', async () => {
    const unknown = await agentctl(['mcp', '--tools', 'tasks_get,nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no tool named nope');
    const none = await agentctl(['mcp', '--read-only', '--tools', 'tasks_create']);
    expect(none.exitCode).toBe(2);
  });
});
