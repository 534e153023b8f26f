import { tasks } from '../../api/tasks.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { ExitCode, ExitError } from '../../errors.js';
import { parseAgentScope } from './body.js';
import { exitCodeForStatus, printResult, resumeCommand } from './outcome.js';

/** Prints the result; the exit code says what it is: 0 completed, 5 failed, 6 cancelled, 9 not finished, 10 wrong shape (--check-schema). */
export const run: CommandRun = async (ctx, [id], options) => {
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  const result = await tasks.result(await ctx.client(), scope, taskId);
  if (result.status === 'pending' || result.status === 'in_progress') {
    if (ctx.out.machine) ctx.out.json(result);
    throw new ExitError(ExitCode.notFinished, `task ${taskId} is still ${result.status}: no result yet`, `wait for it: ${resumeCommand(taskId, scope)}`);
  }
  if (options.checkSchema && result.status === 'completed') return (await import('./result-check.js')).checkedResult(ctx, scope, result);
  printResult(ctx, result);
  return exitCodeForStatus(result.status);
};
