import { createTimeoutMs, tasks } from '../../api/tasks.js';
import { UsageError, ExitError } from '../../errors.js';
import { ExitCode } from '../../errors.js';
import type { CommandRun } from '../../cli/lazy.js';
import { buildTaskBody, parseAgentScope, type TaskFieldOptions } from './body.js';
import { taskDetail } from './columns.js';
import { exitCodeForStatus, parseWaitFlags, printResult, requestLimitMs, resumeCommand, waitAndReport } from './outcome.js';

export const run: CommandRun = async (ctx, [promptArg], options) => {
  // --webhook-listen and its companions: wait for the completion webhook (see webhook-wait.ts).
  if (options.webhookListen || ['publicUrl', 'listenHost', 'listenPort', 'fallbackInterval'].some((key) => options[key] !== undefined)) {
    return (await import('./webhook-wait.js')).createAndListen(ctx, promptArg as string | undefined, options);
  }
  const scope = parseAgentScope(options.agent);
  const follow = Boolean(options.follow);
  const idOnly = Boolean(options.idOnly);
  if (follow && options.wait !== undefined) throw new UsageError('choose --wait (the service waits) or --follow (agentctl polls), not both');
  // With --follow, --timeout bounds the whole command (create and wait), as in `tasks wait`.
  const limits = follow ? parseWaitFlags(ctx, options) : undefined;
  const body = await buildTaskBody(promptArg as string | undefined, options as TaskFieldOptions, 'create', ctx.io, ctx.redactor);

  const client = await ctx.client();
  ctx.onInterrupt('Interrupted while creating the task: it may exist already; check with `agentctl tasks list`.');
  const spinner = body.wait ? await ctx.spinner(`Creating the task and waiting up to ${body.wait}s`) : undefined;
  let task;
  try {
    const timeoutMs = createTimeoutMs(body, ctx.requestTimeoutMs);
    task = await tasks.create(client, scope, body, { timeoutMs: limits ? Math.min(timeoutMs, requestLimitMs(ctx, limits.deadline)) : timeoutMs, signal: ctx.signal });
  } finally {
    spinner?.stop();
  }
  ctx.onInterrupt(undefined);

  // The id is out the moment the task exists, whatever happens to the wait, so a script never
  // creates a second task to find out (stderr keeps --json's stdout one document).
  if (idOnly) ctx.out.line(task.id);
  if (limits) {
    if (!idOnly) ctx.out.info(`Created task ${task.id}; following it (Ctrl-C stops waiting, not the task).`);
    await waitAndReport(ctx, client, scope, task.id, { ...limits, silent: idOnly });
    return;
  }
  if (body.wait) {
    // The service waited: its answer carries the outcome (or a wait_error when time ran out).
    if (!idOnly) {
      if (ctx.out.machine || task.status === 'in_progress' || task.status === 'pending') ctx.out.record(task, taskDetail(task, ctx.out.chalk));
      else printResult(ctx, task);
    }
    if (task.status === 'pending' || task.status === 'in_progress') {
      ctx.out.error(`The wait ran out; task ${task.id} keeps running. Resume with:\n  ${resumeCommand(task.id, scope)}`);
      throw new ExitError(ExitCode.waitTimedOut);
    }
    const code = exitCodeForStatus(task.status);
    if (code !== ExitCode.ok) throw new ExitError(code);
    return;
  }
  if (idOnly) return;
  if (ctx.out.settings.format === 'table') {
    ctx.out.line(`Created task ${task.id} (${task.status}).`);
    ctx.out.info(ctx.out.chalk.dim(`Wait for it: ${resumeCommand(task.id, scope)}`));
  } else {
    ctx.out.record(task, taskDetail(task, ctx.out.chalk));
  }
};
