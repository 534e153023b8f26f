import type { Clock, TimerHandle } from './clock.js';
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

export class Lifecycle {
  /** Scheduled steps and waiters of each task, so cancel, delete and stop clear them. */
  private readonly timers = new Map<string, Set<TimerHandle>>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly endListeners: EndListener[] = [];

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
    this.later(task.id, Math.round(this.durationMs / 5), () => this.run(task));
    if (prompt.includes('[hang]')) return;
    this.later(task.id, this.durationMs, () => this.finish(task, prompt.includes('[fail]') ? 'failed' : 'completed'));
  }

  /** Cancels a pending or running task; false when it had already ended. */
  cancel(task: TaskRecord): boolean {
    if (FINAL.has(task.status)) return false;
    this.finish(task, 'cancelled');
    return true;
  }

  /** Forgets a deleted task's scheduled steps (the service does not stop it; nobody can see it). */
  forget(task: TaskRecord): void {
    this.clearTimers(task.id);
  }

  /** Resolves when the task ends or after `ms` on the clock, whichever comes first. */
  waitFor(task: TaskRecord, ms: number): Promise<void> {
    if (FINAL.has(task.status)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.clock.clearTimeout(timer);
        this.waiters.get(task.id)?.delete(done);
        resolve();
      };
      const timer = this.clock.setTimeout(done, ms);
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
    for (const id of [...this.timers.keys()]) this.clearTimers(id);
    for (const waiters of [...this.waiters.values()]) for (const done of [...waiters]) done();
  }

  /** Runs `action` after `ms` on the clock, under `key` (a task id, or another owner's key); stop() clears it. */
  later(taskId: string, ms: number, action: () => void): void {
    let set = this.timers.get(taskId);
    if (!set) this.timers.set(taskId, (set = new Set()));
    const handle = this.clock.setTimeout(() => {
      set.delete(handle);
      if (set.size === 0) this.timers.delete(taskId);
      action();
    }, ms);
    set.add(handle);
  }

  /** Clears what was scheduled under `key`. */
  clearTimers(taskId: string): void {
    for (const handle of this.timers.get(taskId) ?? []) this.clock.clearTimeout(handle);
    this.timers.delete(taskId);
  }

  private run(task: TaskRecord): void {
    if (task.status !== 'pending') return;
    this.state.changeTask(task, { status: 'in_progress' });
  }

  private finish(task: TaskRecord, status: 'completed' | 'failed' | 'cancelled'): void {
    if (FINAL.has(task.status)) return;
    this.clearTimers(task.id);
    if (status === 'completed') {
      const result = task.output_schema ? exampleFor(task.output_schema) : `Emulated result for: ${excerpt(task.prompt ?? '', RESULT_PROMPT_CHARS)}`;
      this.state.changeTask(task, { status, result });
    } else if (status === 'failed') {
      this.state.changeTask(task, { status, error_message: 'Emulated failure: the prompt asked for [fail].' });
    } else {
      this.state.changeTask(task, { status });
    }
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
