// `tasks wait ID ID...` (or `--any`): one poller for every id, one JSON line per task as it ends.
import { RateGate } from '../../api/rate-gate.js';
import { TaskPoller } from '../../api/task-poller.js';
import { tasks, type TaskScope } from '../../api/tasks.js';
import type { Context } from '../../cli/context.js';
import { ExitCode, isExplainedError } from '../../errors.js';
import { BatchReport } from '../../batch/report.js';
import { exitCodeForStatus, type WaitOptions } from './outcome.js';

/** Polls at most this many tasks at once. */
const CONCURRENCY = 8;

function resumeCommand(ids: Iterable<string>, scope: TaskScope, any: boolean): string {
  return `agentctl tasks wait ${[...ids].join(' ')}${any ? ' --any' : ''}${scope.agentId ? ` --agent ${scope.agentId}` : ''}`;
}

export interface WaitManyOptions {
  scope: TaskScope;
  /** Checked, without repeats. */
  ids: string[];
  any: boolean;
  limits: Omit<WaitOptions, 'silent'>;
}

export async function waitMany(ctx: Context, { scope, ids, any, limits }: WaitManyOptions): Promise<number> {
  const { maxIntervalMs, maxOutageMs } = limits;
  const timeoutMs = limits.deadline === undefined ? undefined : limits.deadline - ctx.clock.now();

  // Polls are single requests (retries: 0): 429s pause the shared gate, outages are the poller's.
  const client = await ctx.client();
  const report = new BatchReport(ctx, any ? 1 : ids.length);
  const waiting = new Set(ids);
  const setInterrupt = () =>
    ctx.onInterrupt(`Stopped waiting. The tasks keep running; resume with:\n  ${resumeCommand(waiting, scope, any)}`);
  setInterrupt();

  const poller = new TaskPoller<{ id: string; scope: TaskScope }>({
    gate: new RateGate(CONCURRENCY, ctx.clock, ctx.signal),
    clock: ctx.clock,
    signal: ctx.signal,
    maxIntervalMs,
    maxOutageMs,
    fetch: (task) => tasks.result(client, task.scope, task.id, { retries: 0 }),
    onEnd: (task, outcome) => {
      if (any && waiting.size < ids.length) return; // the first one has ended the wait
      waiting.delete(task.id);
      if ('result' in outcome) {
        const { status, result, error_message } = outcome.result;
        report.emit({ id: task.id, status, result: result ?? null, error: error_message ?? null }, exitCodeForStatus(status));
      } else {
        const code = isExplainedError(outcome.error) ? outcome.error.exitCode : ExitCode.serviceError;
        report.emit({ id: task.id, status: 'error', result: null, error: ctx.redactor.redact(outcome.error.message) }, code);
      }
      setInterrupt();
      if (any) poller.stop();
    },
  });
  for (const id of ids) poller.add({ id, scope });
  poller.close();

  let timedOut = false;
  const deadline = new AbortController();
  const timer =
    timeoutMs === undefined
      ? undefined
      : ctx.clock.sleep(timeoutMs, AbortSignal.any([deadline.signal, ctx.signal])).then(
          () => {
            timedOut = true;
            poller.stop();
          },
          () => undefined,
        );
  try {
    await poller.run();
  } finally {
    deadline.abort();
    await timer;
  }
  ctx.onInterrupt(undefined);

  if (timedOut && (any ? waiting.size === ids.length : waiting.size > 0)) {
    report.summary([`Still running after ${timeoutMs! / 1000}s: ${waiting.size} task${waiting.size === 1 ? '' : 's'}. Resume with:`, `  ${resumeCommand(waiting, scope, any)}`]);
    return worst(report.code, ExitCode.waitTimedOut);
  }
  if (!any || ids.length > 1) report.summary();
  else report.flush();
  return report.code;
}

function worst(a: number, b: number): number {
  return a === ExitCode.ok ? b : a;
}
