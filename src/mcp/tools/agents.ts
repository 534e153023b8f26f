// The browser-use agent tools (the older agent kind that groups tasks): list, get, create, delete.
// The service builds a browser-use agent under every persistent agent, and deleting it deletes that
// persistent agent too: the list marks those agents and the delete refuses to take one along unasked.
import * as z from 'zod';
import * as mini from 'zod/mini';
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { legacyAgents } from '../../api/legacy-agents.js';
import { persistentAgents } from '../../api/persistent-agents.js';
import { LegacyAgentSchema } from '../../api/schemas/legacy-agent.js';
import { tasks } from '../../api/tasks.js';
import { LIMITS } from '../../contract/validate.js';
import { legacyAgentBody } from '../../core/legacy-agent-body.js';
import { InputError } from '../../errors.js';
import { sanitizeLine } from '../../output/sanitize.js';
import { defineTool, uuid, withArguments } from '../tool.js';
import { serviceId } from '../voice.js';
import { pageAnswer, pageOutput, paging, short } from './common.js';

/** The persistent agent a browser-use agent backs (the service builds one under each persistent agent). */
interface Backed {
  id: string;
  name: string;
}
const backedSchema = z.object({ id: z.string(), name: z.string() }).optional();
const listedAgent = mini.extend(LegacyAgentSchema, { backs_persistent_agent: backedSchema });

const legacyLine = (agent: { id: string; name?: unknown; backs_persistent_agent?: Backed }) =>
  `${agent.id}  ${short(agent.name)}${agent.backs_persistent_agent ? `  (backs persistent agent ${agent.backs_persistent_agent.id})` : ''}`;

/** Which persistent agent each browser-use agent backs: every persistent agent is read (users have few). */
async function backings(client: ApiClient, signal: AbortSignal, stopAt?: string): Promise<Map<string, Backed>> {
  const backed = new Map<string, Backed>();
  for await (const page of persistentAgents.listAll(client, { signal })) {
    for (const agent of page) if (agent.browser_use_agent_id) backed.set(agent.browser_use_agent_id, { id: agent.id, name: agent.name });
    if (stopAt !== undefined && backed.has(stopAt)) break;
  }
  return backed;
}

const agentsList = defineTool({
  name: 'agents_list',
  title: 'List browser-use agents',
  description:
    'Browser-use agents (the older agent kind that groups tasks: give its id as agent_id to the task tools), one page at a time. ' +
    "One backing a persistent agent (it carries that agent's name) has backs_persistent_agent.",
  kind: 'read',
  toolset: 'agents',
  output: pageOutput(listedAgent),
  pageHint: 'ask for a smaller page_size',
  input: z.strictObject(paging),
  async run({ page, page_size }, call) {
    const client = await call.client();
    const [answer, backed] = await Promise.all([legacyAgents.listPage(client, { page, pageSize: page_size }), backings(client, call.signal)]);
    const results = answer.results.map((agent) => {
      const backs = backed.get(agent.id);
      return backs ? { ...agent, backs_persistent_agent: backs } : agent;
    });
    return pageAnswer(results, answer.count, page, Boolean(answer.next), legacyLine, 'browser-use agents');
  },
});
const agentsGet = defineTool({
  name: 'agents_get',
  title: 'Get a browser-use agent',
  description: ({ names }) => `One browser-use agent by id: its name, descriptions, owner's email and timestamps.${names.say` Its tasks are listed with ${'tasks_list'} and agent_id.`}`,
  kind: 'read',
  toolset: 'agents',
  output: LegacyAgentSchema,
  findWith: 'agents_list',
  input: z.strictObject({ id: uuid('the browser-use agent') }),
  async run({ id }, call) {
    const agent = await legacyAgents.get(await call.client(), id);
    return { data: agent, summary: `Browser-use agent ${id}.`, quoted: [legacyLine(agent)] };
  },
});

const agentsCreate = defineTool({
  name: 'agents_create',
  title: 'Create a browser-use agent',
  description: 'Create a browser-use agent; its tasks are then created with agent_id. Every call creates another agent.',
  kind: 'write',
  toolset: 'agents',
  output: LegacyAgentSchema,
  input: z.strictObject({ name: z.string().describe(`the agent's name, at most ${LIMITS.legacyAgentName} characters`) }),
  async run({ name }, call) {
    const agent = await legacyAgents.create(await call.client(), withArguments({}, () => legacyAgentBody({ name }, 'create')));
    return { data: agent, summary: `Created browser-use agent ${serviceId(agent.id, 'browser-use agent', { list: call.names.offered('agents_list') })}.`, quoted: [legacyLine(agent)] };
  },
});

const deletedSchema = z.object({
  id: z.string(),
  deleted: z.boolean(),
  already_gone: z.boolean().optional(),
  declined: z.boolean().optional(),
  tasks_deleted: z.number().optional(),
  persistent_agent_deleted: z.object({ id: z.string(), name: z.string() }).optional(),
});

const agentsDelete = defineTool({
  name: 'agents_delete',
  title: 'Delete a browser-use agent',
  description: ({ names }) =>
    `Delete a browser-use agent and all its tasks, for good. One backing a persistent agent${names.say` (see ${'agents_list'})`} takes that along: ` +
    'refused unless cascade is true (ask the user first). The user confirms where the client can ask. Already gone: already_gone true.',
  kind: 'destructive',
  idempotent: true,
  toolset: 'agents',
  output: deletedSchema,
  input: z.strictObject({
    id: uuid('the browser-use agent'),
    cascade: z.boolean().default(false).describe('also delete the persistent agent it backs, with its timeline'),
  }),
  async run({ id, cascade }, call) {
    const client = await call.client();
    const gone = { data: { id, deleted: false, already_gone: true }, summary: `There is no browser-use agent ${id} (already deleted, or never there); nothing changed.` };
    const agent = await legacyAgents.get(client, id).catch((error: unknown) => (error instanceof ApiError && error.status === 404 ? undefined : Promise.reject(error)));
    if (!agent) return gone;
    const [backs, taskCount] = await Promise.all([
      backings(client, call.signal, id).then((backed) => backed.get(id)),
      tasks.listPage(client, { agentId: id }, { pageSize: 1 }).then((page) => page.count),
    ]);
    // Our words name ids only (the service's only as a UUID: else nothing is deleted); names go to the person asked, and fenced to the model.
    const persistentId = backs && serviceId(backs.id, 'persistent agent');
    const what = `browser-use agent ${id}, its ${taskCount} tasks${backs ? ` and persistent agent ${persistentId} with its timeline` : ''}`;
    const names = [`${id}  ${short(agent.name)}`, ...(backs ? [`${persistentId}  ${short(backs.name)}  (persistent agent)`] : [])];
    if (backs && !cascade) {
      throw new InputError('cascade', `deleting ${id} would also delete persistent agent ${persistentId}, which is built on it; ask the user, then call again with cascade: true`);
    }
    const named = `browser-use agent ${id} "${sanitizeLine(short(agent.name, 60))}", its ${taskCount} tasks${backs ? ` and persistent agent "${sanitizeLine(short(backs.name, 60))}" (${persistentId}) with its timeline` : ''}`;
    if ((await call.confirm(`Delete ${named}? This cannot be undone.`)) === 'declined') {
      return { data: { id, deleted: false, declined: true }, summary: `The user declined: nothing was deleted (${what} stay).`, quoted: names };
    }
    try {
      await legacyAgents.delete(client, id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      return gone;
    }
    return { data: { id, deleted: true, tasks_deleted: taskCount, ...(backs ? { persistent_agent_deleted: backs } : {}) }, summary: `Deleted ${what}.`, quoted: names };
  },
});

export const AGENT_TOOLS = [agentsList, agentsGet, agentsCreate, agentsDelete];
