import { elapsedOn, type Clock, type TimerHandle } from './clock.js';
import { Fifo } from './fifo.js';
import { exampleFor } from './schema-instance.js';
import type { State, TaskRecord } from './state.js';

/**
 * Simulated task lifecycle: pending -> in_progress (after a fifth of the duration) -> a final state
 * (after the full duration), every step scheduled on the emulator's clock. Markers in the prompt let
 * scripts test the other paths.
 */
export const PROMPT_MARKERS = {
  '[fail]': 'the task ends failed, with an error message',
  '[pending]': 'the task stays pending (queued) until cancelled, so it can still be replaced',
  '[hang]': 'the task stays in_progress until cancelled',
  '[no-credits]': 'create answers 402 (not enough task credits)',
  '[server-error]': 'create answers 500 (internal server error)',
} as const;

const FINAL = new Set(['completed', 'failed', 'cancelled']);
const RESULT_PROMPT_CHARS = 60;

export type EndListener = (task: TaskRecord) => void;

/**
 * One kind of step of every task (to in_progress, to its end), in the order they were scheduled:
 * every task's step of a kind comes the same time after its start, so one queue with one timer for
 * its head replaces a timer per task (which cost a create ~3 us and a few hundred bytes per task
 * alive; the emulator is what bounds a batch's throughput in the bench). Steps are timed by the
 * clock's elapsed(), not the wall clock, which can be set back or stand still. Entries name their
 * task by id, so a deleted task's record is not held.
 */
class StepQueue<T extends { id: string }> {
  private readonly steps = new Fifo<{ at: number; item: T }>();
  private timer?: TimerHandle;

  constructor(
    private readonly clock: () => Clock,
    private readonly step: (item: T) => void,
  ) {}

  add(item: T, ms: number): void {
    this.steps.push({ at: elapsedOn(this.clock()) + ms, item });
    if (this.timer === undefined) this.arm();
  }

  /** Runs now every step due by `time` (on elapsed()): a wait that ends when its task's step is due sees the step done. */
  runDueBy(time: number): void {
    for (let next = this.steps.peek(); next !== undefined && next.at <= time; next = this.steps.peek()) {
      this.steps.shift();
      this.step(next.item);
    }
  }

  clear(): void {
    if (this.timer !== undefined) this.clock().clearTimeout(this.timer);
    this.timer = undefined;
    this.steps.clear();
  }

  private arm(): void {
    const next = this.steps.peek();
    if (next === undefined) return this.clear();
    const { at } = next;
    this.timer = this.clock().setTimeout(() => {
      this.timer = undefined;
      // The head is due when its timer fires, even a little before elapsed() says so.
      this.runDueBy(Math.max(at, elapsedOn(this.clock())));
      if (this.timer === undefined) this.arm();
    }, Math.max(0, at - elapsedOn(this.clock())));
  }
}

export class Lifecycle {
  /** What other owners scheduled (persistent agents' runs, by key), and each task's waiters: stop() clears them. */
  private readonly timers = new Map<string, Set<TimerHandle>>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly endListeners: EndListener[] = [];
  /**
   * Tasks' steps: to in_progress, then to their end. A task deleted through its route runs on (the
   * service's worker does not look at is_deleted) and sends its webhook; one whose agent was deleted
   * is gone, and its steps do nothing.
   */
  private readonly runs = new StepQueue<{ id: string }>(() => this.clock, ({ id }) => {
    const task = this.find(id);
    if (task) this.run(task);
  });
  private readonly ends = new StepQueue<{ id: string; status: 'completed' | 'failed' }>(() => this.clock, ({ id, status }) => {
    const task = this.find(id);
    if (task) this.finish(task, status);
  });

  private find(id: string): TaskRecord | undefined {
    return this.state.tasks.get(id) ?? this.state.deletedRunning.get(id);
  }

  constructor(
    private readonly state: State,
    private readonly durationMs: number,
  ) {}

  private get clock(): Clock {
    return this.state.clock;
  }

  start(task: TaskRecord): void {
    const prompt = task.prompt ?? '';
    if (prompt.includes('[pending]')) return;
    this.runs.add({ id: task.id }, Math.round(this.durationMs / 5));
    if (!prompt.includes('[hang]')) this.ends.add({ id: task.id, status: prompt.includes('[fail]') ? 'failed' : 'completed' }, this.durationMs);
  }

  /** Cancels a pending or running task; false when it had already ended. */
  cancel(task: TaskRecord): boolean {
    if (FINAL.has(task.status)) return false;
    this.finish(task, 'cancelled');
    return true;
  }

  /** Resolves when the task ends or after `ms` on the clock, whichever comes first. */
  waitFor(task: TaskRecord, ms: number): Promise<void> {
    if (FINAL.has(task.status)) return Promise.resolve();
    const deadline = elapsedOn(this.clock) + ms;
    return new Promise((resolve) => {
      const done = () => {
        if (timer !== undefined) this.clock.clearTimeout(timer);
        this.waiters.get(task.id)?.delete(done);
        resolve();
      };
      // Its task's steps due by then run first: a wait as long as the task sees it end. No limit
      // (Infinity): no timer, the task's end (or stop()) ends the wait.
      const timer = Number.isFinite(ms) ? this.clock.setTimeout(() => {
        this.runs.runDueBy(deadline);
        this.ends.runDueBy(deadline);
        done();
      }, ms) : undefined;
      let set = this.waiters.get(task.id);
      if (!set) this.waiters.set(task.id, (set = new Set()));
      set.add(done);
    });
  }

  /** Calls `listener` each time a task reaches a final state (completed, failed or cancelled). */
  onEnd(listener: EndListener): void {
    this.endListeners.push(listener);
  }

  stop(): void {
    this.runs.clear();
    this.ends.clear();
    for (const id of [...this.timers.keys()]) this.clearTimers(id);
    for (const waiters of [...this.waiters.values()]) for (const done of [...waiters]) done();
  }

  /** Runs `action` after `ms` on the clock, under `key` (a persistent agent's schedule); stop() clears it. */
  later(key: string, ms: number, action: () => void): void {
    let set = this.timers.get(key);
    if (!set) this.timers.set(key, (set = new Set()));
    const handle = this.clock.setTimeout(() => {
      set.delete(handle);
      if (set.size === 0) this.timers.delete(key);
      action();
    }, ms);
    set.add(handle);
  }

  /** Clears what was scheduled under `key`. */
  clearTimers(key: string): void {
    for (const handle of this.timers.get(key) ?? []) this.clock.clearTimeout(handle);
    this.timers.delete(key);
  }

  private run(task: TaskRecord): void {
    if (task.status !== 'pending') return;
    this.state.changeTask(task, { status: 'in_progress' });
  }

  private finish(task: TaskRecord, status: 'completed' | 'failed' | 'cancelled'): void {
    if (FINAL.has(task.status)) return;
    if (status === 'completed') {
      const result = task.output_schema ? exampleFor(task.output_schema) : `Emulated result for: ${excerpt(task.prompt ?? '', RESULT_PROMPT_CHARS)}`;
      this.state.changeTask(task, { status, result });
    } else if (status === 'failed') {
      this.state.changeTask(task, { status, error_message: 'Emulated failure: the prompt asked for [fail].' });
    } else {
      this.state.changeTask(task, { status });
    }
    this.state.deletedRunning.delete(task.id);
    for (const done of [...(this.waiters.get(task.id) ?? [])]) done();
    this.waiters.delete(task.id);
    for (const listener of this.endListeners) listener(task);
  }
}

/**
 * The start of `text` in at most `max` characters, ending on a whole word followed by an ellipsis
 * when it had to be cut (a single word longer than `max` is cut inside it).
 */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const head = chars.slice(0, max).join('');
  // Cut at the last space at or before `max` characters (the character after the cut is a space,
  // or the head ends exactly at a word boundary).
  const boundary = chars[max] === ' ' ? head.length : head.lastIndexOf(' ');
  const words = (boundary > 0 ? head.slice(0, boundary) : [...head].slice(0, max - 1).join('')).replace(/[\s,;:.!?-]+$/u, '');
  return `${words}…`;
}
