import type { State, TaskRecord } from './state.js';
import { Fifo } from './fifo.js';
import { pythonStrip } from './validation.js';

export const WEBHOOK_USER_AGENT = 'Agentctl-Emulator-AgentWebhook/1.0';
const TIMEOUT_MS = 10_000;
/**
 * Deliveries in flight at once. The service posts a task's webhook from the worker that ran it, so a
 * pool of workers bounds them; unbounded, 100,000 tasks ending together opened a connection each and
 * ran the emulator, and the listener receiving them, out of file descriptors.
 */
export const DEFAULT_WEBHOOK_CONCURRENCY = 16;

/**
 * The completion webhook: once per final state, 10 s timeout (on the emulator's clock, from when its
 * delivery starts), no retry, outcome kept on the task. Deliveries wait in a queue (first ended,
 * first sent) for one of `concurrency` slots; none is dropped, however many tasks end at once.
 */
export class WebhookSender {
  private readonly inFlight = new Set<AbortController>();
  private readonly queue = new Fifo<{ task: TaskRecord; url: string; done: () => void }>();
  /** Each task's delivery not yet done: cancel answers only once its webhook was sent. */
  private readonly pending = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly state: State,
    private readonly log: (line: string) => void,
    private readonly concurrency = DEFAULT_WEBHOOK_CONCURRENCY,
  ) {}

  /** Deliveries waiting for a slot. */
  get queued(): number {
    return this.queue.size;
  }

  deliver(task: TaskRecord): void {
    if (!task.webhook || this.stopped) return;
    const url = task.webhook;
    const delivered = new Promise<void>((done) => this.queue.push({ task, url, done }));
    this.pending.set(task.id, delivered);
    void delivered.then(() => {
      if (this.pending.get(task.id) === delivered) this.pending.delete(task.id);
    });
    this.next();
  }

  /** Resolves once the task's webhook delivery (if one is queued or in flight) is over. */
  delivered(taskId: string): Promise<void> {
    return this.pending.get(taskId) ?? Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
    while (this.queue.size > 0) this.queue.shift()!.done();
    for (const controller of this.inFlight) controller.abort();
  }

  /** Starts queued deliveries while slots are free. */
  private next(): void {
    while (this.inFlight.size < this.concurrency && this.queue.size > 0) {
      const { task, url, done } = this.queue.shift()!;
      void this.send(task, url).finally(() => {
        done();
        this.next();
      });
    }
  }

  private async send(task: TaskRecord, url: string): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = this.state.clock.setTimeout(() => controller.abort(new Error(`timed out after ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    task.webhook_last_called_at = this.state.now();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT },
        body: JSON.stringify(payloadFor(task)),
        redirect: 'follow',
        signal: controller.signal,
      });
      const text = await response.text();
      task.webhook_last_status_code = response.status;
      // f"Received status {status_code}: {response_preview}".strip(), the preview 500 code points.
      task.webhook_last_error = response.ok ? null : pythonStrip(`Received status ${response.status}: ${[...text].slice(0, 500).join('')}`);
      this.log(`webhook ${task.id} -> ${url} answered ${response.status}`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      task.webhook_last_status_code = null;
      task.webhook_last_error = cause?.code ?? cause?.message ?? (error as Error).message;
      this.log(`webhook ${task.id} -> ${url} failed: ${task.webhook_last_error}`);
    } finally {
      this.state.touch(); // the outcome is on the task: saved with the next save
      this.state.clock.clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }
}

export function payloadFor(task: TaskRecord): Record<string, unknown> {
  const base = { id: task.id, status: task.status, agent_id: task.agent_id };
  if (task.status === 'completed') return { ...base, result: task.result };
  if (task.status === 'failed') return { ...base, result: null, error_message: task.error_message ?? 'failed' };
  return { ...base, result: null, message: 'Task has been cancelled.' };
}
