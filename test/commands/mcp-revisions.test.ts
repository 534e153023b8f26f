// Clients of older revisions of the protocol, through the SDK's own Client made to ask for one in
// its initialize (as an older client does): every answer must hold only the content types of the
// revision negotiated, or such a client refuses it whole (the SDK's 1.11 Client refused six tools'
// answers, tasks_create's and tasks_wait's among them, for their resource_link blocks).
import {
  AudioContentSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceLinkSchema,
  TextContentSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { connectMcp, data, text } from '../helpers/mcp.js';

const KEY = 'mcp-revisions-key';
let emulator: RunningEmulator;
/** A task already finished: tasks_wait answers it at its first look. */
let finished: string;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 1, apiKey: KEY });
  finished = (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'done' }, KEY)).id;
  await eventually(async () => (await apiRequest<{ status: string }>(emulator.baseUrl, 'GET', `/tasks/browser-use/${finished}/`, undefined, KEY)).status === 'completed' || undefined);
});
afterAll(() => emulator.close());

/** The content blocks of a tool's answer in each revision (the schema's ContentBlock, or 2024-11-05's three). */
const CONTENT: Record<string, Record<string, { safeParse: (value: unknown) => { success: boolean } }>> = {
  '2024-11-05': { text: TextContentSchema, image: ImageContentSchema, resource: EmbeddedResourceSchema },
  '2025-03-26': { text: TextContentSchema, image: ImageContentSchema, audio: AudioContentSchema, resource: EmbeddedResourceSchema },
  '2025-06-18': { text: TextContentSchema, image: ImageContentSchema, audio: AudioContentSchema, resource: EmbeddedResourceSchema, resource_link: ResourceLinkSchema },
};

/** The blocks of `answer` that a client of `revision` does not know. */
const unknownTo = (revision: string, answer: CallToolResult) => answer.content.filter((block) => !CONTENT[revision]![block.type]?.safeParse(block).success);

/** The answers of every tool that points to a resource: a task created, one waited for and read; a persistent agent created, read, messaged. */
async function linkingAnswers(call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>, name: string) {
  const created = await call('tasks_create', { prompt: 'Summarise example.com' });
  const task = data(created).id as string;
  const waited = await call('tasks_wait', { id: finished, timeout_seconds: 10 });
  expect(data(waited)).toMatchObject({ id: finished, finished: true, status: 'completed' });
  const agent = await call('persistent_create', { name, charter: 'Watch prices' });
  const id = data(agent).id as string;
  const message = await call('persistent_message', { id, body: 'hello', sender: `web://user/42/agent/${id}`, recipient: `web://agent/${id}` });
  const answers = [created, waited, await call('tasks_get', { id: finished }), await call('tasks_result', { id: finished }), agent, await call('persistent_get', { id }), message];
  for (const answer of answers) expect(answer.isError, text(answer)).toBeFalsy();
  return { task, answers };
}

describe('clients of older revisions of the protocol', () => {
  it('get only the content types of the revision they negotiated: links as text before 2025-06-18, as resource_link since', async () => {
    for (const revision of Object.keys(CONTENT)) {
      const { call, close } = await connectMcp({ baseUrl: emulator.baseUrl, apiKey: KEY, protocolVersion: revision });
      const { task, answers } = await linkingAnswers(call, `watcher of ${revision}`);
      for (const answer of answers) expect(unknownTo(revision, answer), revision).toEqual([]);
      const links = answers[0]!.content.filter((block) => block.type === 'resource_link');
      if (revision >= '2025-06-18') expect(links.map((link) => link.uri)).toEqual([`agentctl://tasks/${task}/result`]);
      // An older client reads the link in the text instead: the URI to read with resources/read.
      else expect(text(answers[0]!)).toContain(`agentctl://tasks/${task}/result`);
      // The data is there all the same (a field the older revision does not name is allowed in its results).
      expect(data(answers[0]!).id, revision).toBe(task);
      await close();
    }
  });
});
