import { tasks, type TaskScope } from '../../api/tasks.js';
import type { ApiClient } from '../../api/client.js';
import type { TaskStatus } from '../../api/schemas/common.js';
import type { Task, TaskResult } from '../../api/schemas/task.js';
import { pollUntilFinished } from '../../api/wait.js';
import type { Context } from '../../cli/context.js';
import { ExitError } from '../../errors.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';

/** The exit code a finished task maps to: completed 0, failed 5, cancelled 6. */
export function exitCodeForStatus(status: TaskStatus): ExitCodeValue {
  if (status === 'failed') return ExitCode.taskFailed;
  if (status === 'cancelled') return ExitCode.taskCancelled;
  if (status === 'completed') return ExitCode.ok;
  return ExitCode.waitTimedOut;
}

/** The command that picks a wait up again, for Ctrl-C and timeouts. */
export function resumeCommand(id: string, scope: TaskScope): string {
  return `agentctl tasks wait ${id}${scope.agentId ? ` --agent ${scope.agentId}` : ''}`;
}

export interface WaitOptions {
  intervalMs: number;
  timeoutMs?: number;
  /** Print nothing but the exit code (for --id-only). */
  silent?: boolean;
}

/**
 * Polls a task until it ends, then prints the result endpoint's answer and ends the command with
 * the task's exit code. Used by `tasks wait` and `tasks create --follow`.
 */
export async function waitAndReport(ctx: Context, client: ApiClient, scope: TaskScope, id: string, options: WaitOptions): Promise<void> {
  ctx.onInterrupt(`Stopped waiting. Task ${id} keeps running; resume with:\n  ${resumeCommand(id, scope)}`);
  const started = Date.now();
  const spinner = await ctx.spinner(`Task ${id}: waiting`);
  let status: TaskStatus = 'pending';
  const ticker = setInterval(() => spinner.text(`Task ${id}: ${status} (${Math.round((Date.now() - started) / 1000)}s)`), 1000);
  let outcome;
  try {
    outcome = await pollUntilFinished(() => tasks.get(client, scope, id, { signal: ctx.signal }), {
      intervalMs: options.intervalMs,
      timeoutMs: options.timeoutMs,
      signal: ctx.signal,
      onStatus: (next) => {
        status = next;
        spinner.text(`Task ${id}: ${next}`);
      },
    });
  } finally {
    clearInterval(ticker);
    spinner.stop();
  }
  ctx.onInterrupt(undefined);

  if (!outcome.finished) {
    reportTimeout(ctx, outcome.task, scope, options);
    throw new ExitError(ExitCode.waitTimedOut);
  }
  if (!options.silent) {
    const result = await tasks.result(client, scope, id);
    printResult(ctx, result);
  }
  const code = exitCodeForStatus(outcome.task.status);
  if (code !== ExitCode.ok) throw new ExitError(code);
}

function reportTimeout(ctx: Context, task: Task, scope: TaskScope, options: WaitOptions): void {
  const seconds = options.timeoutMs === undefined ? '' : ` after ${options.timeoutMs / 1000}s`;
  if (ctx.out.machine) ctx.out.json(task);
  else if (!options.silent) ctx.out.line(task.id);
  ctx.out.error(`Task ${task.id} is still ${task.status}${seconds}. Resume with:\n  ${resumeCommand(task.id, scope)}`);
}

/**
 * The result endpoint's answer: with --json the body as returned; for people the result itself
 * (a string as plain text, an object as indented JSON), or why there is none.
 */
export function printResult(ctx: Context, result: TaskResult | Task): void {
  if (ctx.out.machine) {
    ctx.out.json(result);
    return;
  }
  const record = result as Record<string, unknown>;
  if (result.status === 'completed') {
    const value = record.result;
    if (typeof value === 'string') ctx.out.line(value);
    else if (value !== undefined && value !== null) ctx.out.line(JSON.stringify(value, null, 2));
    else ctx.out.info(typeof record.message === 'string' ? record.message : 'The task completed with no result.');
  } else if (result.status === 'failed') {
    ctx.out.error(`Task ${String(result.id ?? '')} failed: ${String(record.error_message ?? 'no error message')}`.replace('Task  ', 'Task '));
  } else if (result.status === 'cancelled') {
    ctx.out.error(`Task ${String(result.id ?? '')} was cancelled.`.replace('Task  ', 'Task '));
  } else {
    ctx.out.info(typeof record.message === 'string' ? record.message : `The task is ${result.status}.`);
  }
}
