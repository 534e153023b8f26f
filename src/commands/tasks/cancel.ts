import { tasks } from '../../api/tasks.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentScope } from './body.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  const answer = await tasks.cancel(await ctx.client(), scope, taskId);
  if (ctx.out.machine) ctx.out.json(answer);
  else if (ctx.out.settings.format === 'plain') ctx.out.record(answer, [{ label: 'status', value: answer.status }]);
  else ctx.out.success(`Task ${taskId}: ${answer.message ?? answer.status}`);
};
