// Talking to a persistent agent made through the API (issue 42): messages go the way the service
// processes them (web: its own MCP send; other channels: the agent's own address), a recipient that
// is not the agent's own is refused before anything is sent, and replies are read over the
// service's durable cursors, each once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, createClient } from '../../src/client/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { jsonLines } from '../helpers/json-lines.js';
import { against } from '../helpers/cli.js';
import { connectMcp, data } from '../helpers/mcp.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const OWNER = 'emulator@example.com';
const MISSING = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 50 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

let counter = 0;
const createAgent = async () => (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: `talk-${++counter}-${Date.now()}`, charter: 'Watch fares.' })).id;
interface Event {
  kind: string;
  cursor: string;
  message?: { id: string; isOutbound: boolean; bodyText: string; inReplyToMessageId: string | null; selfAgentName: string | null };
}
const restTimeline = async (id: string) => (await apiRequest<{ events: Event[] }>(emulator.baseUrl, 'GET', `/agents/${id}/timeline/?limit=100`)).events;
const postsSince = (index: number) => emulator.requests.slice(index).filter((request) => request.method === 'POST');

describe('persistent chat on the web', () => {
  it("reaches an agent made through the API, and the agent's reply comes back", async () => {
    const id = await createAgent();
    const before = emulator.requests.length;
    const result = await cli(['persistent', 'chat', id, '--jsonl'], { input: 'Is the Oslo fare down?\n' });
    expect(result.exitCode, result.stderr).toBe(0);
    // Through the service's own MCP endpoint (its send and its event wait), never the REST messages route.
    expect(new Set(postsSince(before).map((request) => request.path))).toEqual(new Set(['/mcp/']));
    const replies = (jsonLines(result.stdout) as unknown as Event[]).filter((event) => event.kind === 'message' && event.message?.isOutbound);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.message?.bodyText).toMatch(/^Done\./);
    // The message is the agent's (on its timeline, answered), not an ownerless one.
    const mine = (await restTimeline(id)).find((event) => event.message?.bodyText === 'Is the Oslo fare down?');
    expect(mine?.message?.selfAgentName).not.toBeNull();
    expect(replies[0]?.message?.inReplyToMessageId).toBe(mine?.message?.id);
  });
});

describe('persistent chat by e-mail, and a service without the MCP endpoint', () => {
  it("--channel email chats to the agent's own address, and the reply comes back", async () => {
    const id = await createAgent();
    const before = emulator.requests.length;
    const result = await cli(['persistent', 'chat', id, '--channel', 'email', '--sender', OWNER, '--jsonl'], { input: 'By mail, please\n' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect((jsonLines(result.stdout) as unknown as Event[]).some((event) => event.message?.isOutbound)).toBe(true);
    expect(postsSince(before).map((request) => request.path)).toEqual([`/agents/${id}/messages/`]);
  });

  it('a web chat or message names the service version that has the endpoint, and the e-mail way', async () => {
    const old = await stubServer((request, response) => sendJson(response, 404, { detail: 'Not found.' }));
    const chat = await against(old.baseUrl)(['persistent', 'chat', MISSING], { input: 'hi\n' });
    const message = await against(old.baseUrl)(['persistent', 'message', MISSING, 'hi', '--channel', 'web']);
    await old.close();
    for (const result of [chat, message]) {
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('gobii-platform 2.20.0 or later');
      expect(result.stderr).toContain('--channel email --sender you@example.com');
    }
    expect(old.requests.every((request) => request.url.endsWith('/mcp/'))).toBe(true); // nothing sent over REST instead
  });

  it('a web --sender other than the owner is refused before anything is sent', async () => {
    const id = await createAgent();
    const before = emulator.requests.length;
    const result = await cli(['persistent', 'chat', id, '--sender', 'web://user/7/agent/' + id], { input: 'hi\n' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`--sender on the web channel is the key's user, the agent's owner (web://user/42/agent/${id})`);
    expect(postsSince(before)).toEqual([]);
  });
});

describe('a recipient that is not the agent’s own', () => {
  it('is refused before anything is sent, with the reason (command line, web and email)', async () => {
    const id = await createAgent();
    const other = await createAgent();
    const before = emulator.requests.length;
    const web = await cli(['persistent', 'message', id, 'hi', '--channel', 'web', '--recipient', `web://agent/${other}`]);
    expect(web.exitCode).toBe(2);
    expect(web.stderr).toContain('--recipient');
    expect(web.stderr).toMatch(/no owner and never process/);
    const email = await cli(['persistent', 'message', id, 'hi', '--channel', 'email', '--sender', OWNER, '--recipient', 'someone@elsewhere.example']);
    expect(email.exitCode).toBe(2);
    expect(email.stderr).toMatch(/--recipient is not an address the service shows as this agent's own on email/);
    expect(postsSince(before)).toEqual([]); // nothing sent: no message, no MCP call
  });

  it('is refused by the library as an InputError naming the field, and by our MCP server as a usage error', async () => {
    const id = await createAgent();
    const before = emulator.requests.length;
    const client = createClient({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
    const error = await client.persistent.message(id, { channel: 'sms', sender: '+15555550100', body: 'hi', recipient: '+15555550199' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe('recipient');
    const mcp = await connectMcp({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
    const refused = await mcp.call('persistent_message', { id, body: 'hi', recipient: `web://agent/${MISSING}` });
    await mcp.close();
    expect(refused.isError).toBe(true);
    expect(data(refused).error).toMatchObject({ name: 'usage', field: 'recipient' });
    expect(postsSince(before)).toEqual([]);
  });

  it("is taken when the agent's timeline shows it as the agent's own (its e-mail address)", async () => {
    const id = await createAgent();
    const first = await cli(['persistent', 'message', id, 'first', '--channel', 'email', '--sender', OWNER, '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    const own = (JSON.parse(first.stdout) as { event: { message: { recipientAddress: string } } }).event.message.recipientAddress;
    const again = await cli(['persistent', 'message', id, 'second', '--channel', 'email', '--sender', OWNER, '--recipient', own.toUpperCase(), '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ via: 'rest', event: { message: { selfAgentName: expect.any(String) } } });
  });
});

describe('replies over durable cursors', () => {
  it('the library and our MCP server: message, then wait after its cursor for the reply', async () => {
    const id = await createAgent();
    const client = createClient({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
    const sent = await client.persistent.message(id, { channel: 'web', body: 'Library hello' });
    expect(sent.via).toBe('service-mcp');
    const reply = await client.persistent.waitForEvent(id, { afterCursor: sent.cursor ?? undefined, type: 'message', from: 'agent', timeoutMs: 20_000 });
    expect(reply.matched).toBe(true);
    expect(reply.events).toHaveLength(1);
    const mcp = await connectMcp({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
    const viaMcp = data(await mcp.call('persistent_message', { id, body: 'MCP hello' }));
    expect(viaMcp.via).toBe('service-mcp');
    const waited = data(await mcp.call('persistent_wait_reply', { id, after_cursor: viaMcp.cursor, timeout_seconds: 20 }));
    await mcp.close();
    expect(waited.matched).toBe(true);
    expect(waited.events[0].message.inReplyToMessageId).toBe(viaMcp.event.message.id);
  });

  it('wait-event from each cursor on gives every reply once: none missed, none repeated', async () => {
    const id = await createAgent();
    const sent: { cursor: string; id: string }[] = [];
    for (const text of ['one', 'two', 'three']) {
      const result = await cli(['persistent', 'message', id, text, '--channel', 'web', '--json']);
      expect(result.exitCode, result.stderr).toBe(0);
      const answer = JSON.parse(result.stdout) as { via: string; cursor: string; event: { message: { id: string } } };
      expect(answer.via).toBe('service-mcp');
      sent.push({ cursor: answer.cursor, id: answer.event.message.id });
    }
    const seen: Event[] = [];
    let cursor = sent[0]?.cursor as string;
    while (seen.length < 3) {
      const result = await cli(['persistent', 'wait-event', id, '--type', 'message', '--from', 'agent', '--after', cursor, '--timeout', '20', '--json']);
      expect(result.exitCode, result.stderr).toBe(0);
      const answer = JSON.parse(result.stdout) as { events: Event[]; cursor: string };
      seen.push(...answer.events);
      cursor = answer.cursor;
    }
    expect(seen.map((event) => event.message?.inReplyToMessageId).sort()).toEqual(sent.map((message) => message.id).sort());
    expect(new Set(seen.map((event) => event.cursor)).size).toBe(3);
    // Nothing more after the last cursor: the wait runs out (exit 7) and says where to go on from.
    const after = await cli(['persistent', 'wait-event', id, '--type', 'message', '--from', 'agent', '--after', cursor, '--timeout', '0']);
    expect(after.exitCode, after.stderr).toBe(7);
    expect(after.stderr).toContain(`agentctl persistent wait-event ${id} --after ${cursor}`);
  });

  it("offers the service's cursor to type back only when it has a cursor's shape", async () => {
    const CURSOR = '1796000000000000:message:7';
    const hostile = await stubServer((request, response) => {
      const { id } = JSON.parse(request.body) as { id: number };
      const result = { matched: false, timed_out: true, events: [], next_cursor: '1:message:x; rm -rf ~', waited_seconds: 0 };
      sendJson(response, 200, { jsonrpc: '2.0', id, result: { content: [], structuredContent: result, isError: false } });
    });
    const result = await against(hostile.baseUrl)(['persistent', 'wait-event', MISSING, '--after', CURSOR, '--timeout', '0']);
    await hostile.close();
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain(`agentctl persistent wait-event ${MISSING}\n`);
    expect(result.stderr).not.toContain('rm -rf');
  });

  it('refuses a malformed --after before any request', async () => {
    const before = emulator.requests.length;
    const result = await cli(['persistent', 'wait-event', MISSING, '--after', '$(rm -rf ~)']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--after must be a timeline cursor');
    expect(emulator.requests.length).toBe(before);
  });
});
