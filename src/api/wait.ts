import { setTimeout as sleep } from 'node:timers/promises';
import { FINAL_TASK_STATUSES, type TaskStatus } from './schemas/common.js';

export interface PollOptions {
  intervalMs: number;
  /** Give up after this long; undefined waits for ever. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onStatus?: (status: TaskStatus) => void;
  now?: () => number;
}

export type PollOutcome<T extends { status: TaskStatus }> = { finished: true; task: T } | { finished: false; task: T };

export function isFinal(status: TaskStatus): boolean {
  return FINAL_TASK_STATUSES.includes(status);
}

/**
 * Polls `fetchTask` until the task reaches a final status or the time runs out. The last fetch
 * happens no later than the deadline, so a wait never overshoots by more than one request.
 */
export async function pollUntilFinished<T extends { status: TaskStatus }>(
  fetchTask: () => Promise<T>,
  options: PollOptions,
): Promise<PollOutcome<T>> {
  const now = options.now ?? Date.now;
  const deadline = options.timeoutMs === undefined ? Infinity : now() + options.timeoutMs;
  let last: TaskStatus | undefined;
  for (;;) {
    const task = await fetchTask();
    if (task.status !== last) {
      last = task.status;
      options.onStatus?.(task.status);
    }
    if (isFinal(task.status)) return { finished: true, task };
    const remaining = deadline - now();
    if (remaining <= 0) return { finished: false, task };
    await sleep(Math.min(options.intervalMs, remaining), undefined, options.signal ? { signal: options.signal } : undefined);
  }
}
