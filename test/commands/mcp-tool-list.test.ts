// `agentctl mcp`'s tool list (issue 45): tools named as the server offers them, answers over the
// size limit that keep their summaries, input schemas every host takes, a list kept lean, and a
// reviewed snapshot of every tool's definition. Driven by the SDK's own Client against the emulator
// on port 0, or a stub for answers the emulator does not give.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import * as z from 'zod';
import { TOOL_NAMES } from '../../src/mcp/catalog.js';
import { TOOLSETS } from '../../src/mcp/options.js';
import { apiRequest } from '../helpers/api.js';
import { connectMcp, data, text } from '../helpers/mcp.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const KEY = 'mcp-list-key-789';
const UUID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 100, apiKey: KEY });
});
afterAll(() => emulator.close());

type Options = NonNullable<Parameters<typeof connectMcp>[0]['options']>;
const connect = (options: Options = {}, baseUrl = emulator.baseUrl) => connectMcp({ baseUrl, apiKey: KEY, options });

/** Every string a schema's descriptions hold. */
function descriptions(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) => (key === 'description' && typeof value === 'string' ? [value] : descriptions(value)));
}

/** Every JSON Schema keyword a schema uses (property names excluded). */
function keywords(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap(keywords);
  return Object.entries(schema).flatMap(([key, value]) =>
    key === 'properties' ? Object.values(value as object).flatMap(keywords) : [key, ...keywords(value)],
  );
}

/** The tool names in `text` that are not `prefix` + a tool offered: what a model could not call. */
function misnamed(text: string, prefix: string, offered: string[]): string[] {
  const any = new RegExp(`(?<![\\w])(${prefix})?(${TOOL_NAMES().join('|')})(?![\\w])`, 'g');
  return [...text.matchAll(any)].filter((match) => match[1] === undefined || !offered.includes(match[2]!)).map((match) => match[0]);
}

describe('tools named as this server offers them', () => {
  const selections: Options[] = [
    { prefix: 'p_' },
    { prefix: 'p_', toolsets: ['persistent'] },
    { prefix: 'p_', toolsets: ['tasks', 'agents'], exclude: ['tasks_wait', 'tasks_list', 'tasks_result', 'agents_get'] },
    { prefix: 'p_', readOnly: true },
    { prefix: 'p_', allow: ['tasks_create', 'tasks_get', 'persistent_message', 'persistent_create'] },
  ];

  it('names only offered tools, prefixed, in descriptions, argument descriptions, instructions, resources and prompts', async () => {
    for (const options of selections) {
      const { client, close } = await connect(options);
      const { tools } = await client.listTools();
      const offered = tools.map((tool) => tool.name.slice('p_'.length));
      const texts = [client.getInstructions() ?? '', ...tools.flatMap((tool) => [tool.description ?? '', ...descriptions(tool.inputSchema)])];
      const { resources } = await client.listResources();
      const { resourceTemplates } = await client.listResourceTemplates();
      texts.push(...[...resources, ...resourceTemplates].map((resource) => resource.description ?? ''));
      const { prompts } = await client.listPrompts();
      for (const prompt of prompts) {
        const got = await client.getPrompt({ name: prompt.name, arguments: { goal: 'g', objective: 'o', schedule: '@daily' } });
        texts.push(prompt.description ?? '', ...got.messages.map((message) => (message.content as { text: string }).text));
      }
      expect(texts.flatMap((entry) => misnamed(entry, 'p_', offered)), JSON.stringify(options)).toEqual([]);
      await close();
    }
  });

  it('names them so in summaries, next.tool and next_tool, and leaves out the ones not offered', async () => {
    const only = await connect({ prefix: 'g_', toolsets: ['tasks'], exclude: ['tasks_list'] });
    const created = await only.call('g_tasks_create', { prompt: '[hang] keep going' });
    expect(text(created)).toContain('Wait for it with g_tasks_wait');
    const id = data(created).id as string;
    const waited = await only.call('g_tasks_wait', { id, timeout_seconds: 0 });
    expect(data(waited)).toMatchObject({ finished: false, next: { tool: 'g_tasks_wait', arguments: { id } } });
    expect(text(waited)).toContain('call g_tasks_wait again');
    // The list that shows what exists is not offered: the error does not send the model to it.
    const missing = await only.call('g_tasks_get', { id: UUID });
    expect(data(missing).error).toMatchObject({ name: 'not_found', hint: 'check the id' });
    expect(data(missing).error.next_tool).toBeUndefined();
    expect(misnamed(text(missing), 'g_', [])).toEqual([]);
    // A tool's own advice (an agent_id that does not exist) names the agents' list only where it is offered.
    const noAgent = await only.call('g_tasks_get', { id: UUID, agent_id: UUID });
    expect(data(noAgent).error).toMatchObject({ field: 'agent_id', hint: `there is no browser-use agent ${UUID}; leave agent_id out for standalone tasks` });
    expect(data(noAgent).error.next_tool).toBeUndefined();
    await only.close();

    const all = await connect({ prefix: 'g_' });
    expect(data(await all.call('g_tasks_get', { id: UUID })).error).toMatchObject({ next_tool: 'g_tasks_list', hint: 'check the id: g_tasks_list shows the ones that exist' });
    expect(data(await all.call('g_tasks_get', { id: UUID, agent_id: UUID })).error).toMatchObject({
      field: 'agent_id',
      next_tool: 'g_agents_list',
      hint: expect.stringContaining('g_agents_list shows those that exist'),
    });
    const bad = await all.call('g_persistent_create', { name: 'n', schedule: 'every tuesday-ish' });
    expect(data(bad).error).toMatchObject({ field: 'schedule', next_tool: 'g_schedule_preview' });
    const agent = data(await all.call('g_persistent_create', { name: 'n', charter: 'c' })).id as string;
    expect(text(await all.call('g_persistent_message', { id: agent, body: 'hi' }))).toContain('(g_persistent_wait_reply)');
    await all.close();

    const persistent = await connect({ prefix: 'g_', toolsets: ['persistent'] });
    const unchecked = await persistent.call('g_persistent_create', { name: 'n', schedule: 'every tuesday-ish' });
    expect(data(unchecked).error).toMatchObject({ field: 'schedule', hint: 'check the expression against the grammar: resource agentctl://schedule/grammar' });
    expect(data(unchecked).error.next_tool).toBeUndefined();
    expect(text(await persistent.call('g_persistent_message', { id: agent, body: 'hi' }))).toContain('(g_persistent_wait_reply)');
    await persistent.close();

    // A create answered with an id agentctl does not follow: the hint names the list only when offered.
    const stub = await stubServer((_request, response) => sendJson(response, 201, { id: 'not-a-uuid', status: 'pending' }));
    for (const [options, hint] of [
      [{ prefix: 'g_' }, 'look for it with g_tasks_list before calling again'],
      [{ prefix: 'g_', exclude: ['tasks_list'] }, 'look for it before calling again'],
    ] as const) {
      const odd = await connect(options, stub.baseUrl);
      expect(data(await odd.call('g_tasks_create', { prompt: 'p' })).error.hint).toContain(hint);
      await odd.close();
    }
    await stub.close();
  });
});

describe('answers over the size limit', () => {
  it('keep the records, cut short, and their summaries, and say how to read less', async () => {
    const { call, close } = await connect();
    const first = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: `big ${'y'.repeat(60_000)}` }, KEY);
    const second = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: `big ${'z'.repeat(60_000)}` }, KEY);
    // Checked against tasks_list's outputSchema by the SDK's client.
    const page = await call('tasks_list', { page_size: 2 });
    expect(page.isError).toBeFalsy();
    expect(JSON.stringify(page.structuredContent).length).toBeLessThanOrEqual(100_000);
    expect(data(page)).toMatchObject({ page: 1, next_page: 2 });
    expect(data(page).results.map((task: { id: string }) => task.id)).toEqual([second.id, first.id]);
    expect(data(page).results[0].prompt).toMatch(/^big z+… \[cut: 60004 characters\]$/);
    expect(text(page)).toMatch(/^2 of \d+ tasks \(page 1; more with page 2\)\./);
    expect(text(page)).toContain('strings over 2000 characters are cut short');
    expect(text(page)).toContain('ask for a smaller page_size');
    expect(text(page)).toContain(`${second.id}  `);
    await close();
  });

  it("cut a long result, and say so as an error, the summary kept, when no cut is small enough", async () => {
    const LONG = 'aaaaaaaa-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
    // Keys are never cut: 2,000 of 60 characters are over the limit however short the values.
    const huge = Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`${index}`.padEnd(60, '-'), index]));
    const stub = await stubServer((request, response) =>
      sendJson(response, 200, request.url.includes(LONG) ? { id: LONG, status: 'completed', result: 'r'.repeat(150_000) } : { id: UUID, status: 'completed', result: huge }),
    );
    const { call, close } = await connect({}, stub.baseUrl);
    const cut = await call('tasks_result', { id: LONG });
    expect(cut.isError).toBeFalsy();
    expect(data(cut)).toMatchObject({ id: LONG, status: 'completed', result: `${'r'.repeat(2000)}… [cut: 150000 characters]` });
    expect(text(cut)).toContain('read it as the resource agentctl://tasks/ID/result');
    const answer = await call('tasks_result', { id: UUID });
    expect(answer.isError).toBe(true);
    expect(data(answer).error).toMatchObject({ name: 'too_large', hint: expect.stringContaining('agentctl://tasks/ID/result') });
    expect(text(answer)).toContain(`Task ${UUID}: completed.`);
    await close();
    await stub.close();
  });
});

describe('input schemas every host takes', () => {
  it('have no $schema, propertyNames or exclusive bounds, and a wait argument under a client limit', async () => {
    const { client, call, close } = await connect({ maxWaitSeconds: 50 });
    const { tools } = await client.listTools();
    const used = new Set(tools.flatMap((tool) => keywords(tool.inputSchema)));
    for (const refused of ['$schema', 'propertyNames', 'exclusiveMinimum', 'exclusiveMaximum']) expect(used, refused).not.toContain(refused);
    const wait = tools.find((tool) => tool.name === 'tasks_wait')!;
    expect(wait.inputSchema.properties!.timeout_seconds).toMatchObject({ type: 'number', minimum: 0, maximum: 50 });
    expect(wait.description).toContain('call tasks_wait again');
    const refused = await call('tasks_wait', { id: UUID, timeout_seconds: 120 });
    expect(data(refused).error).toMatchObject({ name: 'usage', field: 'timeout_seconds' });
    await close();
  });

  it('are made so from any zod schema a new tool may use', async () => {
    // Imported here: the module that emits every schema, named by no other test.
    const { inputJsonSchema } = await import('../../src/mcp/schema.js');
    const schema = inputJsonSchema(z.strictObject({ n: z.number().positive().lt(10), page: z.number().int(), extra: z.record(z.string(), z.unknown()) }));
    expect(schema).toEqual({
      type: 'object',
      properties: { n: { type: 'number', minimum: 0, maximum: 10 }, page: { type: 'integer' }, extra: { type: 'object' } },
      required: ['n', 'page', 'extra'],
      additionalProperties: false,
    });
  });
});

describe('the size of the tool list', () => {
  it('stays within 25,000 characters, what a model reads within 16,000', async () => {
    const { client, close } = await connect({ maxWaitSeconds: 50 });
    const listed = await client.listTools();
    const whole = JSON.stringify(listed).length;
    const read = JSON.stringify(listed.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).length;
    const outputs = JSON.stringify(listed.tools.map((tool) => tool.outputSchema)).length;
    console.log(`tools/list: ${listed.tools.length} tools, ${whole} characters (~${Math.round(whole / 4)} tokens); names, descriptions and input schemas ${read} (~${Math.round(read / 4)} tokens); output schemas ${outputs}`);
    expect(whole).toBeLessThanOrEqual(25_000);
    expect(read).toBeLessThanOrEqual(16_000);
    await close();
  });
});

const SNAPSHOTS = join(import.meta.dirname, '..', 'toolsnaps');

describe('tool definitions', () => {
  it('match their reviewed snapshots (UPDATE_TOOLSNAPS=1 writes them anew)', async () => {
    // The definitions a server started with no options shows (--max-wait 50, --wait 40, no secrets),
    // and those of the toolsets offered only when asked (--toolsets all).
    const { client, close } = await connect({ maxWaitSeconds: 50, toolsets: TOOLSETS });
    const { tools } = await client.listTools();
    await close();
    const update = Boolean(process.env.UPDATE_TOOLSNAPS);
    if (update) mkdirSync(SNAPSHOTS, { recursive: true });
    const problems: string[] = [];
    for (const tool of tools) {
      const file = join(SNAPSHOTS, `${tool.name}.json`);
      const now = `${JSON.stringify(tool, null, 2)}\n`;
      if (update) writeFileSync(file, now);
      else if (!existsSync(file)) problems.push(`${tool.name}: no snapshot`);
      else if (readFileSync(file, 'utf8') !== now) problems.push(`${tool.name}: changed (${JSON.stringify(diff(JSON.parse(readFileSync(file, 'utf8')) as Tool, tool))})`);
    }
    const gone = (existsSync(SNAPSHOTS) ? readdirSync(SNAPSHOTS) : []).filter((file) => !tools.some((tool) => `${tool.name}.json` === file));
    problems.push(...gone.map((file) => `${file}: no such tool any more (delete the file)`));
    expect(problems, 'review the change, then run UPDATE_TOOLSNAPS=1 npx vitest run test/commands/mcp-tool-list.test.ts and commit test/toolsnaps/').toEqual([]);
  });
});

/** The top-level fields of a definition that differ from its snapshot. */
const diff = (before: Tool, after: Tool) =>
  Object.keys({ ...before, ...after }).filter((key) => JSON.stringify(before[key as keyof Tool]) !== JSON.stringify(after[key as keyof Tool]));
