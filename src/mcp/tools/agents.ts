// The browser-use agent tools (the older agent kind that groups tasks): list, get, create, delete.
import * as z from 'zod';
import { ApiError } from '../../api/errors.js';
import { legacyAgents } from '../../api/legacy-agents.js';
import { LegacyAgentSchema } from '../../api/schemas/legacy-agent.js';
import { LIMITS, checkName } from '../../contract/validate.js';
import { checkField, defineTool, uuid } from '../tool.js';
import { serviceId } from '../voice.js';
import { pagedList, short } from './common.js';

const legacyLine = (agent: { id: string; name?: unknown }) => `${agent.id}  ${short(agent.name)}`;

const agentsList = pagedList({
  name: 'agents_list',
  title: 'List browser-use agents',
  description: 'Browser-use agents (the older agent kind that groups tasks: give its id as agent_id to the task tools), one page at a time, with their ids and names.',
  toolset: 'agents',
  item: LegacyAgentSchema,
  listPage: legacyAgents.listPage,
  line: legacyLine,
  what: 'browser-use agents',
});

const agentsGet = defineTool({
  name: 'agents_get',
  title: 'Get a browser-use agent',
  description: "One browser-use agent by id: its name, descriptions, owner's email and timestamps. Its tasks are listed with tasks_list and agent_id.",
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
    const agent = await legacyAgents.create(await call.client(), { name: checkField('name', () => checkName(name, LIMITS.legacyAgentName, 'the name')) });
    return { data: agent, summary: `Created browser-use agent ${serviceId(agent.id, 'browser-use agent', { list: 'agents_list' })}.`, quoted: [legacyLine(agent)] };
  },
});

const agentsDelete = defineTool({
  name: 'agents_delete',
  title: 'Delete a browser-use agent',
  description:
    'Delete a browser-use agent for good: cannot be undone (check the id with agents_get first). ' +
    'Deleting one that is already gone changes nothing and says so (deleted: false, already_gone: true).',
  kind: 'destructive',
  idempotent: true,
  toolset: 'agents',
  output: z.object({ id: z.string(), deleted: z.boolean(), already_gone: z.boolean().optional() }),
  input: z.strictObject({ id: uuid('the browser-use agent') }),
  async run({ id }, call) {
    try {
      await legacyAgents.delete(await call.client(), id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      return { data: { id, deleted: false, already_gone: true }, summary: `There is no browser-use agent ${id} (already deleted, or never there); nothing changed.` };
    }
    return { data: { id, deleted: true }, summary: `Deleted browser-use agent ${id}.` };
  },
});

export const AGENT_TOOLS = [agentsList, agentsGet, agentsCreate, agentsDelete];
