// The one wait for a task to end, shared by every face: `tasks wait`, `tasks create --follow` and
// the fallback poll of `--webhook-listen` on the command line, the MCP server's tasks_wait and the
// library's tasks.wait. Here a wait becomes polls: polling starts fast (a task that ends in a second
// is noticed within ~0.2 s) and backs off in proportion to the time already waited, up to a cap
// (the schedule is api/wait.ts's). Each poll is one request (this loop does the retrying) whose time
// limit is the usual one but never past the wait's deadline, so a service whose answers hang cannot
// hold a wait past its end. An outage (network errors, 5xx, 429) does not end the wait: it keeps
// trying with capped backoff, honours Retry-After, and gives up only at the wait's own deadline or
// after the longest outage allowed. The outcome is data; each face words it its own way.
import type { ApiClient } from '../api/client.js';
import { ApiError, NetworkError, isTransientError } from '../api/errors.js';
import { backoffDelayMs } from '../api/retry.js';
import type { TaskStatus } from '../api/schemas/common.js';
import type { Task } from '../api/schemas/task.js';
import { tasks, type TaskScope } from '../api/tasks.js';
import { DEFAULT_MAX_INTERVAL_MS, DEFAULT_MAX_OUTAGE_MS, OUTAGE_BACKOFF, isFinal, pollDelayMs } from '../api/wait.js';
import type { Clock } from '../contract/clock.js';

/** How long and how often a wait polls: the one limits type of every face's wait. */
export interface WaitLimits {
  /** When the whole wait ends, in the clock's time; undefined waits until the task ends. */
  deadline?: number;
  /** Longest delay between polls while the service answers. */
  maxIntervalMs?: number;
  /** Shortest delay between polls (a slow fallback poll sets both to the same value). */
  minIntervalMs?: number;
  /** A wait before the first poll (when the caller has just seen the task). */
  initialDelayMs?: number;
  /** Give up after the service has been unreachable this long. */
  maxOutageMs?: number;
}

/** A deadline `timeoutMs` from now on `clock` (none without a timeout). */
export const deadlineIn = (clock: Clock, timeoutMs: number | undefined): number | undefined =>
  timeoutMs === undefined ? undefined : clock.now() + timeoutMs;

export type WaitEvent<T> =
  | { type: 'status'; status: TaskStatus; task: T }
  | { type: 'unreachable'; since: number; error: Error; retryInMs: number }
  | { type: 'reachable'; since: number; at: number };

export type WaitOutcome<T> =
  | { kind: 'finished'; task: T }
  /** The deadline passed; `task` is the last answer, if any came. */
  | { kind: 'timed-out'; task?: T }
  /** Unreachable for longer than maxOutageMs (or asked to wait longer than that): `error` is the last failure. */
  | { kind: 'outage'; since: number; error: Error; task?: T };

export interface WaitDeps<T> {
  /** One poll: a single request within `timeoutMs` (this loop does the retrying). */
  fetchTask: (timeoutMs: number) => Promise<T>;
  /** One request's usual time limit; a poll's is this, or what is left of the wait if that is less. */
  requestTimeoutMs: number;
  clock: Clock;
  signal?: AbortSignal;
  onEvent?: (event: WaitEvent<T>) => void;
  /** Which failures the wait rides out as an outage (default: network errors, 5xx, 429); others end it. */
  ridesOut?: (error: unknown) => boolean;
  random?: () => number;
}

/** What a face says about one task's wait: where it is, its limits, what it hears along the way. */
export interface TaskWait {
  api: ApiClient;
  scope: TaskScope;
  id: string;
  limits: WaitLimits;
  clock: Clock;
  signal?: AbortSignal;
  onEvent?: (event: WaitEvent<Task>) => void;
  /** After each answer (the MCP server's progress notifications). */
  onAnswer?: (task: Task) => Promise<void> | void;
  ridesOut?: (error: unknown) => boolean;
}

/** Waits for one task to end: its polls are GETs of the task, each capped by the deadline. */
export function waitForTaskEnd(wait: TaskWait): Promise<WaitOutcome<Task>> {
  const { api, scope, id, signal, onAnswer } = wait;
  return waitForTask<Task>(wait.limits, {
    clock: wait.clock,
    signal,
    requestTimeoutMs: api.timeoutMs,
    onEvent: wait.onEvent,
    ridesOut: wait.ridesOut,
    fetchTask: async (timeoutMs) => {
      const task = await tasks.get(api, scope, id, { signal, retries: 0, timeoutMs });
      await onAnswer?.(task);
      return task;
    },
  });
}

/** Polls until the task is final, the deadline passes or an outage lasts too long. */
export async function waitForTask<T extends { status: TaskStatus }>(limits: WaitLimits, deps: WaitDeps<T>): Promise<WaitOutcome<T>> {
  const { clock, signal } = deps;
  const maxIntervalMs = limits.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS;
  const maxOutageMs = limits.maxOutageMs ?? DEFAULT_MAX_OUTAGE_MS;
  const ridesOut = deps.ridesOut ?? isTransientError;
  const started = clock.now();
  const deadline = limits.deadline ?? Infinity;
  let last: T | undefined;
  let outage: { since: number; failures: number } | undefined;
  if (limits.initialDelayMs) await clock.sleep(Math.max(0, Math.min(limits.initialDelayMs, deadline - started)), signal);
  for (;;) {
    const attemptStarted = clock.now();
    // The poll may take what is left of the wait, never more: a hanging answer ends at the deadline.
    const pollLimitMs = Math.max(1, Math.min(deps.requestTimeoutMs, deadline - attemptStarted));
    let delay: number;
    try {
      const task = await deps.fetchTask(pollLimitMs);
      if (outage) deps.onEvent?.({ type: 'reachable', since: outage.since, at: clock.now() });
      outage = undefined;
      if (task.status !== last?.status) deps.onEvent?.({ type: 'status', status: task.status, task });
      last = task;
      if (isFinal(task.status)) return { kind: 'finished', task };
      delay = Math.max(limits.minIntervalMs ?? 0, pollDelayMs(clock.now() - started, maxIntervalMs));
    } catch (error) {
      if (signal?.aborted || !ridesOut(error)) throw error;
      // Cut short by the deadline, not by the service being down: the wait has simply run out.
      if (pollLimitMs < deps.requestTimeoutMs && error instanceof NetworkError && error.timedOut) return { kind: 'timed-out', task: last };
      const since = outage?.since ?? attemptStarted;
      const failures = (outage?.failures ?? 0) + 1;
      outage = { since, failures };
      const retryAfterMs = error instanceof ApiError ? error.retryAfter?.ms : undefined;
      delay = Math.max(retryAfterMs ?? 0, backoffDelayMs(failures - 1, OUTAGE_BACKOFF, deps.random));
      const now = clock.now();
      // Asked to wait past the longest outage, or already down that long: stop now, not later.
      if (now - since >= maxOutageMs || (retryAfterMs !== undefined && now + retryAfterMs - since > maxOutageMs)) {
        return { kind: 'outage', since, error: error as Error, task: last };
      }
      if (failures === 1) deps.onEvent?.({ type: 'unreachable', since, error: error as Error, retryInMs: delay });
      delay = Math.min(delay, since + maxOutageMs - now);
    }
    const remaining = deadline - clock.now();
    if (remaining <= 0) return { kind: 'timed-out', task: last };
    await clock.sleep(Math.max(0, Math.min(delay, remaining)), signal);
  }
}
