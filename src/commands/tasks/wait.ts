import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentScope } from './body.js';
import { parseWaitFlags, waitAndReport } from './outcome.js';

export const run: CommandRun = async (ctx, [ids], options) => {
  const [id, ...more] = ids as string[];
  if (more.length > 0 || options.any) return (await import('./wait-many.js')).waitMany(ctx, ids as string[], options);
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  const limits = parseWaitFlags(ctx, options);
  await waitAndReport(ctx, await ctx.client(), scope, taskId, limits);
};
