// The vitest example of docs/library.md, as written there (only the imports point at the sources):
// the documented use of the library keeps working. test/client/library-docs.test.ts checks that
// this file and the page say the same.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError, createClient, type AgentctlClient } from '../../src/client/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

let emulator: RunningEmulator;
let client: AgentctlClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: 7, taskDurationMs: 300 });
  client = createClient({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
});
afterAll(() => emulator.close());

it('creates a task, waits for its end and reads its result', async () => {
  const task = await client.tasks.create({ prompt: 'Find the weather in Oslo' });
  const seen: string[] = [];
  const done = await client.tasks.wait(task.id, { timeoutMs: 60_000, onStatus: (t) => seen.push(t.status) });
  expect(done.status).toBe('completed');
  expect(seen.at(-1)).toBe('completed');
  const { status, result } = await client.tasks.result(task.id);
  expect(status).toBe('completed');
  expect(result).toBeDefined();
});

it('walks every page of a list with for await', async () => {
  for (const city of ['Bergen', 'Tromsø', 'Bodø']) await client.tasks.create({ prompt: `Find the weather in ${city}` });
  const prompts: unknown[] = [];
  for await (const task of client.tasks.list({ pageSize: 2 })) prompts.push(task.prompt);
  expect(prompts).toContain('Find the weather in Tromsø');
  expect(prompts).toHaveLength(4);
});

it('refuses a bad input before any request, naming the field', async () => {
  const before = emulator.requests.length;
  await expect(client.tasks.create({ prompt: 'Book a table', webhook: 'ftp://example.com/hook' })).rejects.toMatchObject({
    name: 'InputError',
    field: 'webhook',
  });
  expect(emulator.requests.length).toBe(before);
});

it('throws the service’s refusals as typed errors', async () => {
  const error = await client.tasks.get('3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(404);
});

it('stops a wait when its signal is aborted', async () => {
  const task = await client.tasks.create({ prompt: 'Watch this page for ever [hang]' });
  const controller = new AbortController();
  const waiting = client.tasks.wait(task.id, { signal: controller.signal });
  controller.abort();
  await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  await client.tasks.cancel(task.id);
});

it('previews a schedule without the service', async () => {
  const preview = await client.schedule.preview('0 9 * * mon-fri', { count: 2, from: new Date('2026-01-01T00:00:00Z') });
  expect(preview.next).toEqual(['2026-01-01T09:00:00.000Z', '2026-01-02T09:00:00.000Z']);
});

it('talks to a persistent agent and reads its whole timeline', async () => {
  const agent = await client.persistent.create({ name: 'Price scout', charter: 'Watch the price of a flight to Oslo.' });
  const sent = await client.persistent.message(agent.id, { channel: 'web', body: 'Any news?' }); // through the service's MCP send
  const reply = await client.persistent.waitForEvent(agent.id, { afterCursor: sent.cursor ?? undefined, type: 'message', from: 'agent', timeoutMs: 10_000 });
  expect(reply.matched).toBe(true);
  const kinds: string[] = [];
  for await (const event of client.persistent.events(agent.id)) kinds.push(event.kind);
  expect(kinds).toContain('message');
});
