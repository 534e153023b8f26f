// Following an agent's events over the service's wait (src/core/conversation.ts): each wait goes on
// from the last one's cursor, and an event a service hands back twice is shown once.
import { afterEach, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { Redactor } from '../../src/api/redact.js';
import { followAgentEvents } from '../../src/core/conversation.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const AGENT = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
let stub: Awaited<ReturnType<typeof stubServer>> | undefined;
afterEach(() => stub?.close());

it('goes on from each answer’s cursor and shows a repeated event once', async () => {
  const a = { kind: 'message', cursor: '1:message:a' };
  const b = { kind: 'message', cursor: '2:message:b' };
  const answers = [
    { events: [a], next_cursor: a.cursor },
    { events: [a], next_cursor: a.cursor }, // the cursor did not move: the same event again
    { events: [b], next_cursor: b.cursor },
  ];
  const asked: unknown[] = [];
  stub = await stubServer((request, response, index) => {
    const call = JSON.parse(request.body) as { id: number; params: { arguments: { after_cursor: unknown } } };
    asked.push(call.params.arguments.after_cursor);
    const result = { matched: true, timed_out: false, waited_seconds: 0, latest_cursor: null, ...answers[index] };
    sendJson(response, 200, { jsonrpc: '2.0', id: call.id, result: { content: [], structuredContent: result, isError: false } });
  });
  const client = new ApiClient({ baseUrl: stub.baseUrl, timeoutMs: 5_000, userAgent: 't', redactor: new Redactor() });
  const shown: string[] = [];
  await followAgentEvents(client, AGENT, '0:message:start', {
    onEvents: (events) => shown.push(...events.map((event) => event.cursor as string)),
    done: () => shown.includes(b.cursor),
    signal: new AbortController().signal,
    sleep: async () => undefined,
  });
  expect(shown).toEqual([a.cursor, b.cursor]);
  expect(asked).toEqual(['0:message:start', a.cursor, a.cursor]);
});
