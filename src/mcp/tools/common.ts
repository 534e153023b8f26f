// What the tools share: id and paging arguments, one-line renderings of records, page answers.
import * as z from 'zod';
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { legacyAgents } from '../../api/legacy-agents.js';
import type { PageRequest } from '../../api/pagination.js';
import type { Page } from '../../api/schemas/common.js';
import type { TaskScope } from '../../api/tasks.js';
import { LIMITS } from '../../contract/validate.js';
import { advise } from '../failure.js';
import type { ToolNames } from '../names.js';
import { defineTool, uuid, type Tool, type ToolAnswer, type ToolCall, type Toolset } from '../tool.js';

/** The page a list tool reads unless told otherwise: small enough for a model to read through. */
export const DEFAULT_PAGE_SIZE = 20;

export const agentScope = uuid('the browser-use agent whose tasks these are; leave out for standalone tasks').optional();
export const scopeOf = (agentId: string | undefined): TaskScope => (agentId ? { agentId } : {});

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * A task tool's handler whose "not found" is the agent_id's fault when that agent does not exist
 * (the service answers the same 404 for an unknown agent as for an unknown task): it then names
 * agent_id and the tool that lists agents. Costs one request, on that failure only.
 */
export function scoped<A extends { agent_id?: string }>(run: (args: A, call: ToolCall) => Promise<ToolAnswer>) {
  return async (args: A, call: ToolCall): Promise<ToolAnswer> => {
    try {
      return await run(args, call);
    } catch (error) {
      const agentId = args.agent_id;
      if (!agentId || !isNotFound(error)) throw error;
      const missing = await legacyAgents.get(await call.client(), agentId).then(() => false, isNotFound);
      if (!missing) throw error;
      const hint = (names: ToolNames) => `there is no browser-use agent ${agentId}${names.say`: ${'agents_list'} shows those that exist`}; leave agent_id out for standalone tasks`;
      throw advise(error, { field: 'agent_id', next_tool: 'agents_list', hint });
    }
  };
}
export const paging = {
  page: z.number().int().min(1).default(1).describe('page number, from 1'),
  page_size: z.number().int().min(1).max(LIMITS.pageSize).default(DEFAULT_PAGE_SIZE).describe(`items per page, 1..${LIMITS.pageSize}`),
};

/** A page of a list as the list tools answer it: the items are the service's records. */
export function pageOutput(item: z.core.$ZodType) {
  return z.looseObject({ count: z.number(), page: z.number(), next_page: z.number().nullable(), results: z.array(item as z.ZodType) });
}

export function short(text: unknown, max = 80): string {
  const value = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

export const taskLine = (task: { id: string; status: string; prompt?: unknown }) => `${task.id}  ${task.status}  ${short(task.prompt)}`.trimEnd();

/** A page of a list as the list tools answer it, with how to read on. */
export function pageAnswer<T>(items: T[], count: number, page: number, more: boolean, line: (item: T) => string, what: string): ToolAnswer {
  const next = more ? page + 1 : null;
  const head = `${items.length} of ${count} ${what} (page ${page}${next ? `; more with page ${next}` : ''}).`;
  return { data: { count, page, next_page: next, results: items }, summary: head, quoted: items.map(line) };
}

/** A tool that reads one page of a list of agents. */
export function pagedList<T extends { id: string }>(list: {
  name: string;
  title: string;
  description: string;
  toolset: Toolset;
  item: z.core.$ZodType;
  listPage: (client: ApiClient, request: PageRequest) => Promise<Page<T>>;
  line: (item: T) => string;
  what: string;
}): Tool {
  return defineTool({
    name: list.name,
    title: list.title,
    description: list.description,
    kind: 'read',
    toolset: list.toolset,
    output: pageOutput(list.item),
    pageHint: 'ask for a smaller page_size',
    input: z.strictObject(paging),
    async run({ page, page_size }, call) {
      const answer = await list.listPage(await call.client(), { page, pageSize: page_size, signal: call.signal });
      return pageAnswer(answer.results, answer.count, page, Boolean(answer.next), list.line, list.what);
    },
  }) as unknown as Tool;
}
