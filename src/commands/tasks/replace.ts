import { tasks } from '../../api/tasks.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { buildTaskBody, parseAgentScope, type TaskFieldOptions } from './body.js';
import { taskDetail } from './columns.js';

export const run: CommandRun = async (ctx, [id, prompt], options) => {
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  const body = await buildTaskBody(prompt as string | undefined, options as TaskFieldOptions, 'replace', ctx.io, ctx.redactor);
  const task = await tasks.replace(await ctx.client(), scope, taskId, body);
  ctx.out.record(task, taskDetail(task, ctx.out.chalk));
};
