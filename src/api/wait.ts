// Waiting for a task to end, shared by `tasks wait`, `tasks create --follow` and the fallback poll
// of `--webhook-listen`. Polling starts fast (a task that ends in a second is noticed within ~0.2 s)
// and backs off in proportion to the time already waited, up to a cap. An outage (network errors,
// 5xx, 429) does not end the wait: it keeps trying with capped backoff, honours Retry-After, and
// gives up only at the wait's own deadline or after the longest outage allowed.
import { FINAL_TASK_STATUSES, type TaskStatus } from '../contract/enums.js';
import type { Clock } from '../contract/clock.js';
import { ApiError, isTransientError } from './errors.js';
import { backoffDelayMs } from './retry.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';

/** The first poll comes this soon after the first answer... */
export const FIRST_POLL_DELAY_MS = 100;
/** ...and each later delay grows by this share of the time already waited (10%). */
export const POLL_GROWTH = 0.1;
/** Default cap on the delay between polls (`--interval`). */
export const DEFAULT_MAX_INTERVAL_MS = 2000;
/** Default longest outage a wait rides out (`--max-outage`). */
export const DEFAULT_MAX_OUTAGE_MS = 300_000;
/** Backoff while the service is unreachable: 0.5 s doubling up to 10 s. */
export const OUTAGE_BACKOFF = { baseDelayMs: 500, maxDelayMs: 10_000 };

export function isFinal(status: TaskStatus): boolean {
  return FINAL_TASK_STATUSES.includes(status);
}

/** The exit code a finished task maps to: completed 0, failed 5, cancelled 6. */
export function exitCodeForStatus(status: TaskStatus): ExitCodeValue {
  if (status === 'failed') return ExitCode.taskFailed;
  if (status === 'cancelled') return ExitCode.taskCancelled;
  if (status === 'completed') return ExitCode.ok;
  return ExitCode.waitTimedOut;
}

/** The delay before the next poll, `elapsedMs` into a healthy wait. */
export function pollDelayMs(elapsedMs: number, maxIntervalMs = DEFAULT_MAX_INTERVAL_MS): number {
  return Math.round(Math.min(maxIntervalMs, FIRST_POLL_DELAY_MS + elapsedMs * POLL_GROWTH));
}

/** How many requests a healthy wait of `durationMs` sends (stated in --help). */
export function pollsInWait(durationMs: number, maxIntervalMs = DEFAULT_MAX_INTERVAL_MS): number {
  let polls = 1;
  for (let elapsed = 0; ; polls++) {
    elapsed += pollDelayMs(elapsed, maxIntervalMs);
    if (elapsed > durationMs) return polls;
  }
}

export interface WaitLimits {
  /** Longest delay between polls while the service answers. */
  maxIntervalMs?: number;
  /** Shortest delay between polls (a slow fallback poll sets both to the same value). */
  minIntervalMs?: number;
  /** A wait before the first poll (when the caller has just seen the task). */
  initialDelayMs?: number;
  /** Give up (exit 7) after this long; undefined waits until the task ends. */
  timeoutMs?: number;
  /** Give up after the service has been unreachable this long. */
  maxOutageMs?: number;
}

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
  /** One poll: a single request (this loop does the retrying), with its usual time limit. */
  fetchTask: () => Promise<T>;
  clock: Clock;
  signal?: AbortSignal;
  onEvent?: (event: WaitEvent<T>) => void;
  random?: () => number;
}

/** Polls until the task is final, the deadline passes or an outage lasts too long. */
export async function waitForTask<T extends { status: TaskStatus }>(limits: WaitLimits, deps: WaitDeps<T>): Promise<WaitOutcome<T>> {
  const { clock, signal } = deps;
  const maxIntervalMs = limits.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS;
  const maxOutageMs = limits.maxOutageMs ?? DEFAULT_MAX_OUTAGE_MS;
  const started = clock.now();
  const deadline = limits.timeoutMs === undefined ? Infinity : started + limits.timeoutMs;
  let last: T | undefined;
  let outage: { since: number; failures: number } | undefined;
  if (limits.initialDelayMs) await clock.sleep(Math.min(limits.initialDelayMs, deadline - started), signal);
  for (;;) {
    const attemptStarted = clock.now();
    let delay: number;
    try {
      const task = await deps.fetchTask();
      if (outage) deps.onEvent?.({ type: 'reachable', since: outage.since, at: clock.now() });
      outage = undefined;
      if (task.status !== last?.status) deps.onEvent?.({ type: 'status', status: task.status, task });
      last = task;
      if (isFinal(task.status)) return { kind: 'finished', task };
      delay = Math.max(limits.minIntervalMs ?? 0, pollDelayMs(clock.now() - started, maxIntervalMs));
    } catch (error) {
      if (signal?.aborted || !isTransientError(error)) throw error;
      const since = outage?.since ?? attemptStarted;
      const failures = (outage?.failures ?? 0) + 1;
      outage = { since, failures };
      const retryAfterMs = error instanceof ApiError ? error.retryAfter?.ms : undefined;
      delay = Math.max(retryAfterMs ?? 0, backoffDelayMs(failures - 1, OUTAGE_BACKOFF, deps.random));
      const now = clock.now();
      // Asked to wait past the longest outage, or already down that long: stop now, not later.
      if (now - since >= maxOutageMs || (retryAfterMs !== undefined && now + retryAfterMs - since > maxOutageMs)) {
        return { kind: 'outage', since, error, task: last };
      }
      if (failures === 1) deps.onEvent?.({ type: 'unreachable', since, error, retryInMs: delay });
      delay = Math.min(delay, since + maxOutageMs - now);
    }
    const remaining = deadline - clock.now();
    if (remaining <= 0) return { kind: 'timed-out', task: last };
    await clock.sleep(Math.max(0, Math.min(delay, remaining)), signal);
  }
}
