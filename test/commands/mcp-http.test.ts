// `agentctl mcp --http`'s engine in-process: the SDK's own Client over Streamable HTTP, and plain
// requests for what a client must not get through (a foreign Origin, no token).
import { createServer } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startHttp, type HttpOptions, type RunningHttp } from '../../src/mcp/http.js';
import { eventually } from '../helpers/api.js';
import { mcpDeps, testClient } from '../helpers/mcp.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const KEY = 'mcp-http-key-789';
const UUID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const TOKEN = 'token-of-the-http-test-0123456789';
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY });
});
afterAll(() => emulator.close());

const start = (http: Partial<HttpOptions> = {}, baseUrl = emulator.baseUrl, retries = 0) =>
  startHttp(mcpDeps(baseUrl, KEY, {}, undefined, retries), { readOnly: false, maxWaitSeconds: 30 }, { port: 0, token: TOKEN, ...http });

async function connect(url: string, options: StreamableHTTPClientTransportOptions = {}): Promise<Client> {
  const client = testClient('http-test');
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } }, ...options }));
  return client;
}

/** A client whose event stream (the GET on which a session's log messages come) is open, and the messages it was sent. */
async function listening(url: string): Promise<{ client: Client; logged: string[] }> {
  let opened: () => void = () => undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const client = await connect(url, {
    fetch: async (input, init) => {
      const answer = await fetch(input, init);
      if (init?.method === 'GET' && answer.ok) opened();
      return answer;
    },
  });
  const logged: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(`${notification.params.level}: ${String(notification.params.data)}`));
  await open;
  return { client, logged };
}

/** What an OAuth-capable client (mcp-remote, the Inspector) gives the SDK's transport; nothing stored, redirects kept. */
function oauthProvider(redirects: URL[]): OAuthClientProvider {
  const redirectUrl = 'http://127.0.0.1:9/callback';
  return {
    redirectUrl,
    clientMetadata: { redirect_uris: [redirectUrl], client_name: 'oauth-test' },
    clientInformation: () => undefined,
    saveClientInformation: () => undefined,
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: (url) => void redirects.push(url),
    saveCodeVerifier: () => undefined,
    codeVerifier: () => 'verifier',
  };
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
    expect(anonymous.headers.get('www-authenticate')).not.toContain('resource_metadata');
  });

  it('tells a client that can do OAuth that its token is wrong, and starts no OAuth', async () => {
    const redirects: URL[] = [];
    const asked: string[] = [];
    const record: typeof fetch = (input, init) => (asked.push(String(input)), fetch(input, init));
    const client = testClient('oauth-test');
    const transport = new StreamableHTTPClientTransport(new URL(running.url), {
      authProvider: oauthProvider(redirects),
      requestInit: { headers: { authorization: 'Bearer not-the-token' } },
      fetch: record,
    });
    const refused = await client.connect(transport).then(() => undefined, (error: unknown) => error as Error);
    expect(refused).toBeInstanceOf(Error);
    expect(refused).not.toBeInstanceOf(OAuthError);
    expect(refused!.message).toMatch(/wrong bearer token: send Authorization: Bearer <token> with the token in AGENTCTL_MCP_TOKEN/);
    expect(asked.filter((url) => !url.endsWith('/mcp'))).toEqual([]);
    expect(redirects).toEqual([]);
  });

  it('ends the OAuth discovery of a client that sent no token with the token to send', async () => {
    const redirects: URL[] = [];
    const client = testClient('oauth-test');
    const transport = new StreamableHTTPClientTransport(new URL(running.url), { authProvider: oauthProvider(redirects) });
    const refused = await client.connect(transport).then(() => undefined, (error: unknown) => error as Error);
    // The client looked for OAuth metadata, found none, tried to register, and was told what to do instead.
    expect(refused).toBeInstanceOf(OAuthError);
    expect(refused!.message).toBe('this server does not use OAuth: send Authorization: Bearer <token> with the token in AGENTCTL_MCP_TOKEN or the one agentctl mcp printed at start');
    expect(redirects).toEqual([]);
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/register']) {
      const answer = await fetch(new URL(path, running.url));
      expect(answer.status, path).toBe(404);
      expect(await answer.json(), path).toMatchObject({ error: 'access_denied', error_description: expect.stringContaining('AGENTCTL_MCP_TOKEN') });
    }
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

  it("logs a session's retries to that session alone, at the level it set", async () => {
    // Every other request to the service fails once: each session's call is retried once.
    const stub = await stubServer((_request, response, index) => (index % 2 === 0 ? sendJson(response, 503, { detail: 'busy' }) : sendJson(response, 200, { id: UUID, status: 'pending' })));
    const server = await start({}, stub.baseUrl, 2);
    const first = await listening(server.url);
    const second = await listening(server.url);
    const quiet = await listening(server.url);
    await quiet.client.setLoggingLevel('warning');
    await first.client.callTool({ name: 'tasks_get', arguments: { id: UUID } });
    await eventually(() => first.logged.length > 0 || undefined, 5000, "the first session's log message");
    await quiet.client.callTool({ name: 'tasks_get', arguments: { id: UUID } });
    await second.client.callTool({ name: 'tasks_get', arguments: { id: UUID } });
    await eventually(() => second.logged.length > 0 || undefined, 5000, "the second session's log message");
    // The first session's message came before the second's on the same stream, had it been sent to every session.
    expect(second.logged).toEqual(['info: retrying after 503 in 1 ms']);
    expect(first.logged[0]).toBe('info: retrying after 503 in 1 ms');
    expect(quiet.logged).toEqual([]);
    await Promise.all([first, second, quiet].map(({ client }) => client.close()));
    await server.close();
    await stub.close();
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
