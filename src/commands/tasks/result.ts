import { tasks } from '../../api/tasks.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentScope } from './body.js';
import { printResult } from './outcome.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  if (options.checkSchema) return (await import('./result-check.js')).resultWithCheck(ctx, scope, taskId);
  printResult(ctx, await tasks.result(await ctx.client(), scope, taskId));
};
