import { tasks } from '../../api/tasks.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentScope } from './body.js';
import { taskDetail } from './columns.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  const task = await tasks.get(await ctx.client(), scope, taskId);
  ctx.out.record(task, taskDetail(task, ctx.out.chalk));
};
