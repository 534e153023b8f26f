import { tasks, type TaskScope } from '../../api/tasks.js';
import type { ApiClient } from '../../api/client.js';
import { clockTime, formatDuration } from '../../api/clock.js';
import { WaitEndedError } from '../../api/errors.js';
import type { TaskStatus } from '../../api/schemas/common.js';
import type { Task, TaskResult } from '../../api/schemas/task.js';
import { deadlineIn, waitForTaskEnd, type WaitEvent, type WaitLimits } from '../../core/wait.js';
import type { Context } from '../../cli/context.js';
import type { WaitFlags } from './options.js';
import { toJson } from '../../output/format.js';
import { ExitError, isExplainedError } from '../../errors.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { oneLine } from '../../contract/text.js';
import { exitCodeForStatus } from '../../api/wait.js';

export { exitCodeForStatus };

/** The command that picks a wait up again, for Ctrl-C and timeouts. */
export function resumeCommand(id: string, scope: TaskScope): string {
  return `agentctl tasks wait ${id}${scope.agentId ? ` --agent ${scope.agentId}` : ''}`;
}

/** A started wait: the one limits type (core/wait.ts) with the flags' values, and how it reports. */
export interface WaitOptions extends WaitLimits {
  /** Longest delay between polls (--interval). */
  maxIntervalMs: number;
  /** Longest outage ridden out (--max-outage). */
  maxOutageMs: number;
  /** Print nothing but the exit code (for --id-only). */
  silent?: boolean;
}

/**
 * Starts a wait with the limits every waiting command shares (options.ts): `--timeout SEC` is the
 * whole wait (counted from now, so call this before the first request), `--interval SEC` the longest
 * delay between polls, `--max-outage SEC` how long the service may be unreachable.
 */
export function startWait(ctx: Context, flags: WaitFlags): Omit<WaitOptions, 'silent'> {
  // In a waiting command the global --timeout is the whole wait, not one request's limit.
  ctx.ownsTimeoutFlag = true;
  return { maxIntervalMs: flags.maxIntervalMs, maxOutageMs: flags.maxOutageMs, deadline: deadlineIn(ctx.clock, flags.timeoutMs) };
}

/** One request's time limit inside a wait: the usual limit, but never past the wait's deadline. */
export function requestLimitMs(ctx: Context, deadline: number | undefined): number {
  return deadline === undefined ? ctx.requestTimeoutMs : Math.max(1, Math.min(ctx.requestTimeoutMs, deadline - ctx.clock.now()));
}

/** What a wait says on stderr while the service is down and when it is back. */
export function describeWaitEvent(event: WaitEvent<unknown>): string | undefined {
  if (event.type === 'unreachable') return `service unreachable since ${clockTime(event.since)}, retrying (${event.error.message.split('\n')[0]})`;
  if (event.type === 'reachable') return `service reachable again after ${formatDuration(event.at - event.since)}`;
  return undefined;
}

/**
 * Polls a task until it ends, then prints the result endpoint's answer and ends the command with
 * the task's exit code. Used by `tasks wait` and `tasks create --follow`. Rides out outages (see
 * core/wait.ts); every way it can stop early names the task and the command that resumes the wait.
 */
export async function waitAndReport(
  ctx: Context,
  client: ApiClient,
  scope: TaskScope,
  id: string,
  options: WaitOptions,
): Promise<void> {
  const { clock } = ctx;
  const resume = `Task ${id} keeps running; resume with:\n  ${resumeCommand(id, scope)}`;
  ctx.onInterrupt(`Stopped waiting. ${resume}`);
  const started = clock.now();
  const spinner = await ctx.spinner(`Task ${id}: waiting`);
  let status: TaskStatus = 'pending';
  const ticker = setInterval(() => spinner.text(`Task ${id}: ${status} (${Math.round((clock.now() - started) / 1000)}s)`), 1000);
  let outcome;
  try {
    outcome = await waitForTaskEnd({
      api: client,
      scope,
      id,
      limits: options,
      clock,
      signal: ctx.signal,
      onEvent: (event) => {
        if (event.type === 'status') {
          status = event.status;
          spinner.text(`Task ${id}: ${event.status}`);
        }
        const line = describeWaitEvent(event);
        if (line) ctx.out.warn(line);
      },
    });
  } catch (error) {
    throw withResumeHint(error, id, scope, ctx.signal);
  } finally {
    clearInterval(ticker);
    spinner.stop();
  }

  if (outcome.kind === 'timed-out') {
    ctx.onInterrupt(undefined);
    reportTimeout(ctx, outcome.task, id, scope, options, clock.now() - started);
  }
  if (outcome.kind === 'outage') {
    ctx.onInterrupt(undefined);
    const error = outcome.error as Error & { exitCode?: ExitCodeValue; hint?: string };
    throw new WaitEndedError(
      `${error.message}\nStopped waiting: the service has been unreachable since ${clockTime(outcome.since)} ` +
        `(${formatDuration(clock.now() - outcome.since)}; --max-outage is ${options.maxOutageMs / 1000}s). ${resume}`,
      error.exitCode ?? ExitCode.network,
      error.hint,
    );
  }
  if (!options.silent) {
    try {
      printResult(ctx, await tasks.result(client, scope, id, { signal: ctx.signal }));
    } catch (error) {
      throw withResumeHint(error, id, scope, ctx.signal);
    }
  }
  ctx.onInterrupt(undefined);
  const code = exitCodeForStatus(outcome.task.status);
  if (code !== ExitCode.ok) throw new ExitError(code);
}

/** An error that ends a wait early, with the task id and the command that picks the wait up again. */
export function withResumeHint(error: unknown, id: string, scope: TaskScope, signal?: AbortSignal): unknown {
  if (signal?.aborted || !isExplainedError(error) || error instanceof ExitError) return error;
  // An unknown id is no wait to resume: the 404's own hint (check the id) is the one that helps.
  if (error.exitCode === ExitCode.notFound) return error;
  const resume = `task ${id} may still be running; resume with \`${resumeCommand(id, scope)}\``;
  return new WaitEndedError(error.message, error.exitCode, error.hint ? `${error.hint}\nhint: ${resume}` : resume);
}

function reportTimeout(ctx: Context, task: Task | undefined, id: string, scope: TaskScope, options: WaitOptions, waitedMs: number): never {
  // The id reaches stdout so a script can resume (in --json's shape when that was asked for).
  if (ctx.out.machine) ctx.out.json(task ?? { id });
  else if (!options.silent) ctx.out.line(id);
  const state = task ? `is still ${task.status}` : 'could not be checked (the service was unreachable)';
  waitRanOut(ctx, `Task ${id} ${state} after ${formatDuration(waitedMs)} (--timeout)`, resumeCommand(id, scope));
}

/**
 * Ends a wait that ran out (exit 7) saying so and how to resume: for people two lines on stderr;
 * under --json/--jq the one JSON error object, its message and hint saying the same.
 */
export function waitRanOut(ctx: Context, sentence: string, resume: string): never {
  if (ctx.out.machine) throw new ExitError(ExitCode.waitTimedOut, sentence.charAt(0).toLowerCase() + sentence.slice(1), `resume with: ${resume}`);
  ctx.out.error(`${sentence}. Resume with:\n  ${resume}`);
  throw new ExitError(ExitCode.waitTimedOut);
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
    else if (value !== undefined && value !== null) ctx.out.line(toJson(value, 2));
    else ctx.out.info(typeof record.message === 'string' ? record.message : 'The task completed with no result.');
  } else if (result.status === 'failed') {
    // The service's text, in an error line: one line (a line break would start a line of the CI log).
    ctx.out.error(`Task ${oneLine(String(result.id ?? ''))} failed: ${oneLine(String(record.error_message ?? 'no error message'))}`.replace('Task  ', 'Task '));
  } else if (result.status === 'cancelled') {
    ctx.out.error(`Task ${oneLine(String(result.id ?? ''))} was cancelled.`.replace('Task  ', 'Task '));
  } else {
    ctx.out.info(typeof record.message === 'string' ? record.message : `The task is ${result.status}.`);
  }
}
