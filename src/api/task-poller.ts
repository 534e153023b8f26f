// One poller for many tasks (`tasks run-batch --follow`, `tasks wait ID ID...`): GETs on the result
// endpoint, which carries the status and, once the task has ended, its result or error. Each task
// is polled on the schedule of a single wait (wait.ts) by its own age: fast while it is young, then
// every maxIntervalMs, so the polls of a batch whose tasks were created over an hour spread out
// instead of going in rounds of every task at once. Requests go through a shared RateGate (bounded
// concurrency and rate, 429 pauses everyone); an outage (network errors, 5xx) keeps the tasks
// pending, with backoff, until it has lasted too long.
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

/** The least time between two looks for due tasks (each look reads every pending task). */
const MIN_LOOK_GAP_MS = 50;

interface Scheduled<T> {
  task: T;
  /** Times in ms since the poller was made, whole: small integers are stored in the object itself,
   * where a clock's time (~1.7e12) takes a number of its own per field, per task. */
  addedAt: number;
  /** When it is polled next. */
  due: number;
  /** Polled every this often instead of by age (a task whose webhook is awaited: a slow fallback). */
  everyMs?: number;
  /** A poll of it is in flight. */
  busy?: boolean;
}

export class TaskPoller<T extends PolledTask> {
  private readonly pending = new Map<string, Scheduled<T>>();
  private closed = false;
  private stopped = false;
  private wake?: () => void;
  /** When the current nap ends: a task added due later need not wake it. */
  private napUntil = Infinity;
  /** The earliest time a pending task is due, as far as known (a look for due tasks reads them all). */
  private nextDueAt = 0;
  /** Tasks to poll at once (their webhook came), and ids poked before they were added. */
  private poked: Array<Scheduled<T>> = [];
  private readonly pokedEarly = new Set<string>();
  private failures = 0;
  private lastAnswerAt: number;

  private readonly epoch: number;

  constructor(private readonly options: PollerOptions<T>) {
    this.epoch = options.clock.now();
    this.lastAnswerAt = 0;
  }

  /** The clock's time since the poller was made, in whole ms (see Scheduled). */
  private now(): number {
    return Math.round(this.options.clock.now() - this.epoch);
  }

  get size(): number {
    return this.pending.size;
  }

  /**
   * A task to poll, at once and then by its age; with `everyMs` (its webhook is awaited), first after
   * and then every `everyMs`, until poke() says its webhook came.
   */
  add(task: T, everyMs?: number): void {
    const now = this.now();
    const early = this.pokedEarly.delete(task.id);
    const every = everyMs === undefined ? undefined : Math.round(everyMs);
    const entry: Scheduled<T> = { task, addedAt: now, due: every === undefined || early ? now : now + every, everyMs: every };
    this.pending.set(task.id, entry);
    this.nextDueAt = Math.min(this.nextDueAt, entry.due);
    // Woken only when it must look sooner: a batch adds tasks by the thousand, most due after the nap.
    if (entry.due < this.napUntil) this.wake?.();
  }

  /** Polls a task as soon as possible (its completion webhook came); one not added yet is polled once it is. */
  poke(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return void this.pokedEarly.add(id);
    this.poked.push(entry);
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
    if (signal?.aborted) throw signal.reason;
    signal?.addEventListener('abort', () => this.stop(), { once: true });
    for (;;) {
      if (this.stopped || (this.closed && this.pending.size === 0)) return;
      if (this.pending.size === 0) {
        this.napUntil = Infinity;
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      let batch: Array<Scheduled<T>> = this.poked.splice(0);
      const now = this.now();
      if (batch.length === 0 && now >= this.nextDueAt) batch = this.due(now);
      if (batch.length === 0) {
        await this.nap(Math.max(MIN_LOOK_GAP_MS, this.nextDueAt - now));
        continue;
      }
      const failedBefore = this.failures;
      await this.poll(batch);
      if (this.stopped || (this.closed && this.pending.size === 0)) return;
      if (this.failures > failedBefore) await clock.sleep(backoffDelayMs(this.failures - 1, OUTAGE_BACKOFF), signal);
    }
  }

  /** The tasks due by `now`, most overdue first; notes when the next of the others is due. */
  private due(now: number): Array<Scheduled<T>> {
    const due: Array<Scheduled<T>> = [];
    let next = Infinity;
    for (const entry of this.pending.values()) {
      if (entry.due <= now) due.push(entry);
      else next = Math.min(next, entry.due);
    }
    this.nextDueAt = next;
    return due.sort((a, b) => a.due - b.due);
  }

  /** Sleeps until `ms` have passed or a poke or a new task wakes it. */
  private async nap(ms: number): Promise<void> {
    const { clock, signal } = this.options;
    // Its own signal only: stop() (which the run's signal calls) wakes it. Combining the two with
    // AbortSignal.any on every nap left a WeakRef behind on the long-lived signal each time.
    const woken = new AbortController();
    this.wake = () => woken.abort();
    this.napUntil = this.now() + ms;
    try {
      await clock.sleep(ms, woken.signal);
    } catch (error) {
      if (!woken.signal.aborted) throw error;
    } finally {
      this.wake = undefined;
    }
    if (signal?.aborted) throw signal.reason;
  }

  /** Polls the tasks that are due, most overdue first, as many at a time as the gate lets through. */
  private async poll(due: Array<Scheduled<T>>): Promise<void> {
    const { maxIntervalMs } = this.options;
    let lastError: unknown;
    let answered = false;
    let next = 0;
    const worker = async () => {
      for (let entry = due[next++]; entry && !this.stopped; entry = due[next++]) {
        const { task } = entry;
        if (entry.busy || this.pending.get(task.id) !== entry) continue; // polled already (poked and due), or ended
        entry.busy = true;
        try {
          const result = await this.options.gate.run(() => this.options.fetch(task));
          answered = true;
          if (!isFinal(result.status)) {
            const now = this.now();
            entry.due = now + (entry.everyMs ?? pollDelayMs(now - entry.addedAt, maxIntervalMs));
            continue;
          }
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
        } finally {
          entry.busy = false;
          // Still pending (not ended, or a failed poll to try again): the next look must not miss it.
          if (this.pending.get(task.id) === entry) this.nextDueAt = Math.min(this.nextDueAt, entry.due);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.gate.concurrency, due.length) }, worker));
    const now = this.now();
    if (answered || lastError === undefined) {
      this.failures = 0;
      this.lastAnswerAt = now;
    } else {
      this.failures++;
      if (now - this.lastAnswerAt >= this.options.maxOutageMs) throw lastError;
    }
  }
}
