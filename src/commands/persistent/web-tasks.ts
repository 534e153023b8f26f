import { persistentAgents, type WebTasksQuery } from '../../api/persistent-agents.js';
import type { Task } from '../../api/schemas/task.js';
import { checkUuid, parseIntegerFlag } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { taskColumns } from '../tasks/columns.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const agentId = checkUuid(String(id), 'agent id');
  const query: WebTasksQuery = {};
  if (options.status !== undefined) query.status = String(options.status);
  if (options.limit !== undefined) query.limit = parseIntegerFlag(String(options.limit), '--limit', 1, 200);
  const answer = await persistentAgents.webTasks(await ctx.client(), agentId, query);
  // The service filters web tasks itself; filtering again keeps the promise if one does not.
  const results = query.status ? answer.results.filter((task) => task.status === query.status) : answer.results;
  ctx.out.list(results as unknown as Task[], taskColumns(ctx.out.chalk));
};
