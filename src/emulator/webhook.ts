import type { State, TaskRecord } from './state.js';

export const WEBHOOK_USER_AGENT = 'Agentctl-Emulator-AgentWebhook/1.0';
const TIMEOUT_MS = 10_000;

/**
 * The completion webhook: once per final state, 10 s timeout (on the emulator's clock), no retry,
 * outcome kept on the task.
 */
export class WebhookSender {
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly state: State,
    private readonly log: (line: string) => void,
  ) {}

  deliver(task: TaskRecord): void {
    if (!task.webhook) return;
    void this.send(task, task.webhook);
  }

  stop(): void {
    for (const controller of this.inFlight) controller.abort();
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
      task.webhook_last_error = response.ok ? null : `Received status ${response.status}: ${text.slice(0, 500)}`;
      this.log(`webhook ${task.id} -> ${url} answered ${response.status}`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      task.webhook_last_status_code = null;
      task.webhook_last_error = cause?.code ?? cause?.message ?? (error as Error).message;
      this.log(`webhook ${task.id} -> ${url} failed: ${task.webhook_last_error}`);
    } finally {
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
