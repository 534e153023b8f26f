// A wait's schedule: how soon polls come and how they back off, for the one wait of a task
// (src/core/wait.ts, which every face calls) and the poller of many (task-poller.ts). Polling starts
// fast (a task that ends in a second is noticed within ~0.2 s) and backs off in proportion to the
// time already waited, up to a cap; while the service is down, with capped exponential backoff.
import { FINAL_TASK_STATUSES, type TaskStatus } from '../contract/enums.js';
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
