// One poller for many tasks (`tasks run-batch --follow`, `tasks wait ID ID...`): rounds of GETs on
// the result endpoint, which carries the status and, once the task has ended, its result or error,
// so a task costs one request per round. Requests go through a shared RateGate (bounded
// concurrency, 429 pauses everyone). Rounds start fast and space out with the time waited, on the
// schedule of a single wait (wait.ts); an outage (network errors, 5xx) keeps the tasks pending, with
// the same backoff, until it has lasted too long.
import type { Clock } from '../contract/clock.js';
import { ApiError, isTransientError } from './errors.js';
import type { RateGate } from './rate-gate.js';
import { backoffDelayMs } from './retry.js';
import type { TaskResult } from './schemas/task.js';
import type { TaskScope } from './tasks.js';
import { OUTAGE_BACKOFF, isFinal, pollDelayMs } from './wait.js';

export interface PolledTask {
  id: string;
  scope: TaskScope;
}

export interface PollerOptions<T extends PolledTask> {
  gate: RateGate;
  clock: Clock;
  signal?: AbortSignal;
  fetch: (task: T) => Promise<TaskResult>;
  /** Longest time between rounds. */
  maxIntervalMs: number;
  /** Give up (run() rejects with the last error) after failing this long without one answer. */
  maxOutageMs: number;
  /** A task has ended (`result`), or cannot be polled at all (`error`: unknown id, no access). */
  onEnd: (task: T, outcome: { result: TaskResult } | { error: Error }) => void;
}

export class TaskPoller<T extends PolledTask> {
  private readonly pending = new Map<string, T>();
  private closed = false;
  private stopped = false;
  private wake?: () => void;
  private failures = 0;
  private lastAnswerAt: number;

  constructor(private readonly options: PollerOptions<T>) {
    this.lastAnswerAt = options.clock.now();
  }

  get size(): number {
    return this.pending.size;
  }

  add(task: T): void {
    this.pending.set(task.id, task);
    this.wake?.();
  }

  /** No more tasks will be added: run() resolves once the pending ones have ended. */
  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** Ends run() after the current round, pending tasks or not. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  async run(): Promise<void> {
    const { clock, signal } = this.options;
    const started = clock.now();
    signal?.addEventListener('abort', () => this.stop(), { once: true });
    for (;;) {
      if (this.stopped || (this.closed && this.pending.size === 0)) return;
      if (this.pending.size === 0) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      const failedBefore = this.failures;
      await this.round();
      if (this.stopped || (this.closed && this.pending.size === 0)) return;
      const outage = this.failures > failedBefore;
      const delay = outage
        ? backoffDelayMs(this.failures - 1, OUTAGE_BACKOFF)
        : pollDelayMs(clock.now() - started, this.options.maxIntervalMs);
      await clock.sleep(delay, signal);
    }
  }

  /** Polls every pending task once, `concurrency` at a time. */
  private async round(): Promise<void> {
    const queue = [...this.pending.values()];
    let lastError: unknown;
    let answered = false;
    const worker = async () => {
      for (let task = queue.shift(); task && !this.stopped; task = queue.shift()) {
        try {
          const result = await this.options.gate.run(() => this.options.fetch(task));
          answered = true;
          if (!isFinal(result.status)) continue;
          this.pending.delete(task.id);
          this.options.onEnd(task, { result });
        } catch (error) {
          if (this.options.signal?.aborted) throw error;
          if (!isTransientError(error)) {
            answered = true;
            this.pending.delete(task.id);
            this.options.onEnd(task, { error: error as Error });
            continue;
          }
          lastError = error;
          if (error instanceof ApiError && error.status === 429) this.options.gate.pause(error.retryAfter?.ms ?? 1000);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.gate.concurrency, queue.length) }, worker));
    const now = this.options.clock.now();
    if (answered || lastError === undefined) {
      this.failures = 0;
      this.lastAnswerAt = now;
    } else {
      this.failures++;
      if (now - this.lastAnswerAt >= this.options.maxOutageMs) throw lastError;
    }
  }
}
