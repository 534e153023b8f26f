// `agentctl mcp --http`'s engine in-process: the SDK's own Client over Streamable HTTP, and plain
// requests for what a client must not get through (a foreign Origin, no token).
import { createServer } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startHttp, type RunningHttp } from '../../src/mcp/http.js';
import { eventually } from '../helpers/api.js';
import { mcpDeps, testClient } from '../helpers/mcp.js';

const KEY = 'mcp-http-key-789';
const TOKEN = 'token-of-the-http-test-0123456789';
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY });
});
afterAll(() => emulator.close());

const start = (http: { idleMs?: number; maxSessions?: number; now?: () => number } = {}) =>
  startHttp(mcpDeps(emulator.baseUrl, KEY), { readOnly: false, maxWaitSeconds: 30 }, { port: 0, token: TOKEN, ...http });

async function connect(url: string): Promise<Client> {
  const client = testClient('http-test');
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const post = (url: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });

/** Whether this machine can listen on [::1]. */
const hasIpv6 = () =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });

describe('agentctl mcp over Streamable HTTP', () => {
  let running: RunningHttp;
  afterAll(() => running?.close());

  it('refuses a foreign Origin with 403, and answers 401 with WWW-Authenticate', async () => {
    running = await start();
    const foreign = await post(running.url, { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const own = await post(running.url, { authorization: `Bearer ${TOKEN}`, origin: new URL(running.url).origin });
    expect(own.status).toBe(200);
    const anonymous = await post(running.url, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('serves [::1] as well as 127.0.0.1', async (context) => {
    if (!(await hasIpv6())) return context.skip();
    const port = new URL(running.url).port;
    const client = await connect(`http://[::1]:${port}/mcp`);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('keeps at most the cap of sessions, closing the one idle longest', async () => {
    // A clock that stands still: every session equally idle, so the first opened is the one that goes.
    const capped = await start({ maxSessions: 2, now: () => 0 });
    const first = await connect(capped.url);
    const second = await connect(capped.url);
    const third = await connect(capped.url);
    expect(capped.sessions()).toBe(2);
    await expect(first.listTools()).rejects.toThrow(/session/i);
    expect((await third.listTools()).tools.length).toBeGreaterThan(0);
    await Promise.all([first, second, third].map((client) => client.close()));
    await capped.close();
  });

  it('ends sessions that stay idle', async () => {
    let time = 0;
    const idle = await start({ idleMs: 1000, now: () => time });
    const client = await connect(idle.url);
    expect(idle.sessions()).toBe(1);
    // Time passes on the session's clock without requests (the client's event stream may open late: each check ages it again).
    await eventually(() => ((time += 2000), idle.sessions() === 0 || undefined), 5000, 'the idle session to end');
    await expect(client.listTools()).rejects.toThrow(/session/i);
    await client.close();
    await idle.close();
  });
});
