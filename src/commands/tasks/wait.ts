import { checkUuid, parseSecondsFlag } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentScope } from './body.js';
import { waitAndReport } from './outcome.js';

export const run: CommandRun = async (ctx, [ids], options) => {
  const [id, ...more] = ids as string[];
  if (more.length > 0 || options.any) return (await import('./wait-many.js')).waitMany(ctx, ids as string[], options);
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  // Here the global --timeout is the whole wait, not one request's limit.
  ctx.ownsTimeoutFlag = true;
  const timeout = ctx.flags.timeout === undefined ? undefined : parseSecondsFlag(ctx.flags.timeout, '--timeout') * 1000;
  const intervalMs = parseSecondsFlag(String(options.interval ?? '2'), '--interval', 0.05) * 1000;
  await waitAndReport(ctx, await ctx.client(), scope, taskId, { intervalMs, timeoutMs: timeout });
};
