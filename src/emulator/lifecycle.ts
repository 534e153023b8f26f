import { exampleFor } from './schema-instance.js';
import { now, type State, type TaskRecord } from './state.js';
import type { WebhookSender } from './webhook.js';

/**
 * Simulated task lifecycle: pending -> in_progress (after a fifth of the duration) -> a final state
 * (after the full duration). Markers in the prompt let scripts test the other paths.
 */
export const PROMPT_MARKERS = {
  '[fail]': 'the task ends failed, with an error message',
  '[hang]': 'the task stays in_progress until cancelled',
  '[no-credits]': 'create answers 402 (not enough task credits)',
  '[server-error]': 'create answers 500 (internal server error)',
} as const;

const FINAL = new Set(['completed', 'failed', 'cancelled']);

export class Lifecycle {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly endListeners: ((task: TaskRecord) => void)[] = [];

  constructor(
    private readonly state: State,
    private readonly durationMs: number,
    private readonly webhooks: WebhookSender,
  ) {}

  start(task: TaskRecord): void {
    const prompt = task.prompt ?? '';
    this.later(Math.round(this.durationMs / 5), () => this.move(task.id, 'in_progress'));
    if (prompt.includes('[hang]')) return;
    this.later(this.durationMs, () => {
      if (prompt.includes('[fail]')) this.finish(task.id, 'failed');
      else this.finish(task.id, 'completed');
    });
  }

  /** Cancels a pending or running task; false when it had already ended. */
  cancel(task: TaskRecord): boolean {
    if (FINAL.has(task.status)) return false;
    this.finish(task.id, 'cancelled');
    return true;
  }

  /** Resolves when the task ends or after `ms`, whichever comes first. */
  waitFor(taskId: string, ms: number): Promise<void> {
    const task = this.state.tasks.get(taskId);
    if (!task || FINAL.has(task.status)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        this.waiters.get(taskId)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.timers.add(timer);
      if (!this.waiters.has(taskId)) this.waiters.set(taskId, new Set());
      this.waiters.get(taskId)?.add(done);
    });
  }

  /** Calls `listener` each time a task reaches a final state (completed, failed or cancelled). */
  onEnd(listener: (task: TaskRecord) => void): void {
    this.endListeners.push(listener);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const waiters of this.waiters.values()) for (const done of waiters) done();
  }

  private later(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private move(id: string, status: 'in_progress'): void {
    const task = this.state.tasks.get(id);
    if (!task || task.status !== 'pending') return;
    task.status = status;
    task.updated_at = now();
  }

  private finish(id: string, status: 'completed' | 'failed' | 'cancelled'): void {
    const task = this.state.tasks.get(id);
    if (!task || FINAL.has(task.status)) return;
    task.status = status;
    task.updated_at = now();
    if (status === 'completed') {
      task.result = task.output_schema ? exampleFor(task.output_schema) : `Emulated result for: ${(task.prompt ?? '').slice(0, 60)}`;
      task.credits_cost = '0.400';
    } else if (status === 'failed') {
      task.error_message = 'Emulated failure: the prompt asked for [fail].';
      task.credits_cost = '0.100';
    }
    for (const done of [...(this.waiters.get(id) ?? [])]) done();
    this.waiters.delete(id);
    this.webhooks.deliver(task);
    for (const listener of this.endListeners) listener(task);
  }
}
