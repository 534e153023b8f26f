import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { against } from '../helpers/cli.js';
import { EMULATOR_UA, freePort, listen, start, stopAll } from '../helpers/webhook-listen.js';

interface TaskRecord {
  id: string;
  status: string;
  webhook: string | null;
  webhook_last_called_at: string | null;
  webhook_last_status_code: number | null;
  webhook_last_error: string | null;
}

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 300 });
  cli = against(emulator.baseUrl);
  env = { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' };
});
afterAll(() => emulator.close());
afterEach(stopAll);

const createTask = (prompt: string, webhook: string) => apiRequest<TaskRecord>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt, webhook });
const getTask = (id: string) => apiRequest<TaskRecord>(emulator.baseUrl, 'GET', `/tasks/browser-use/${id}/`);
/** The task once the service has recorded its webhook attempt. */
const afterDelivery = (id: string) =>
  eventually(async () => {
    const task = await getTask(id);
    return task.webhook_last_called_at && (task.webhook_last_status_code !== null || task.webhook_last_error) ? task : undefined;
  }, 15_000, `the webhook attempt of ${id}`);

describe('emulator -> webhook-listen round trip', () => {
  it('delivers completed, failed and cancelled events in the spec\'s shapes, each answered 200 and recorded', async () => {
    const listener = await listen(['--count', '3', '--jsonl']);
    const completed = await createTask('round trip', listener.url);
    const failed = await createTask('[fail] round trip', listener.url);
    const cancelled = await createTask('[hang] round trip', listener.url);
    await apiRequest(emulator.baseUrl, 'POST', `/tasks/browser-use/${cancelled.id}/cancel/`);
    expect(await listener.exited).toBe(0);

    const events = listener.lines.slice(1).map((line) => JSON.parse(line));
    const byId = Object.fromEntries(events.map((event) => [event.body.id, event]));
    // Standalone tasks have no agent: agent_id is null in the payload.
    expect(byId[completed.id]?.body).toEqual({ id: completed.id, status: 'completed', agent_id: null, result: expect.stringContaining('round trip') });
    expect(byId[failed.id]?.body).toEqual({ id: failed.id, status: 'failed', agent_id: null, result: null, error_message: expect.any(String) });
    expect(byId[cancelled.id]?.body).toEqual({ id: cancelled.id, status: 'cancelled', agent_id: null, result: null, message: expect.any(String) });
    for (const event of events) expect(event.headers).toEqual({ 'user-agent': EMULATOR_UA, 'content-type': 'application/json' });
    expect(listener.stderr()).not.toContain('warning');

    for (const task of [completed, failed, cancelled]) {
      expect(await afterDelivery(task.id)).toMatchObject({ webhook: listener.url, webhook_last_status_code: 200, webhook_last_error: null });
    }
  });

  it.skipIf(process.platform !== 'linux')('records a receiver that answers 500, and never retries it', async () => {
    // --output /dev/full: every write fails, so the listener answers 500 (never a 200 it cannot keep).
    const listener = await listen(['--output', '/dev/full', '--jsonl']);
    const first = await createTask('answered 500', listener.url);
    const recorded = await afterDelivery(first.id);
    expect(recorded.webhook_last_status_code).toBe(500);
    expect(recorded.webhook_last_error).toMatch(/^Received status 500: \{"error":"could not store the event: .*ENOSPC/);
    // A second delivery comes and goes; the first task's was attempted once only.
    const second = await createTask('answered 500 too', listener.url);
    expect((await afterDelivery(second.id)).webhook_last_status_code).toBe(500);
    expect((await getTask(first.id)).webhook_last_called_at).toBe(recorded.webhook_last_called_at);
    listener.kill('SIGINT');
    expect(await listener.exited).toBe(130);
    expect(listener.stderr()).toMatch(/Received 0 event\(s\) \(2 not stored\)/);
  });

  it('records a receiver that is down (the network error) with no status code', async () => {
    const listener = await listen();
    listener.kill('SIGINT');
    expect(await listener.exited).toBe(130);
    const task = await createTask('nobody home', listener.url);
    const recorded = await afterDelivery(task.id);
    expect(recorded.webhook_last_status_code).toBeNull();
    expect(recorded.webhook_last_error).toMatch(/ECONNREFUSED|refused/i);
  });
});

describe('tasks create --webhook-listen', () => {
  // A fallback poll far beyond the test's time proves the callback ended the wait.
  const NO_POLL = ['--fallback-interval', '120'];

  it('waits for the callback, prints the result like `tasks wait` and exits 0', async () => {
    const result = await cli(['tasks', 'create', 'Find the weather in Oslo', '--webhook-listen', ...NO_POLL]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('Emulated result for: Find the weather in Oslo\n');
    expect(result.stderr).toMatch(/Created task ([0-9a-f-]{36}); waiting for its webhook at http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{24}/);
    expect(result.stderr).toMatch(/Webhook received: task [0-9a-f-]{36} completed\./);
    const id = (/Created task ([0-9a-f-]{36})/.exec(result.stderr) ?? [])[1] as string;
    expect((await getTask(id)).webhook_last_status_code).toBe(200);
  });

  it('with --json prints the result endpoint\'s body; exits 5 for a failed task', async () => {
    const result = await cli(['tasks', 'create', '[fail] webhook', '--webhook-listen', '--json', ...NO_POLL]);
    expect(result.exitCode).toBe(5);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'failed', result: null, error_message: expect.any(String) });
    expect(result.stderr).toMatch(/Webhook received: task \S+ failed\./);
  });

  it('exits 6 when the task is cancelled (--id-only prints the id first)', async () => {
    const waiting = start(['tasks', 'create', '[hang] cancel me', '--webhook-listen', '--id-only', ...NO_POLL], env);
    const id = await waiting.line(0);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await apiRequest(emulator.baseUrl, 'POST', `/tasks/browser-use/${id}/cancel/`);
    expect(await waiting.exited).toBe(6);
    expect(waiting.lines).toEqual([id]);
    expect(waiting.stderr()).toMatch(/Webhook received: task \S+ cancelled\./);
  });

  it('falls back to polling when the webhook never arrives, and says why', async () => {
    const deadUrl = `http://127.0.0.1:${await freePort()}/tunnel`;
    const result = await cli(['tasks', 'create', 'lost webhook', '--webhook-listen', '--public-url', deadUrl, '--fallback-interval', '0.2']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('Emulated result for: lost webhook\n');
    expect(result.stderr).toMatch(/waiting for its webhook at http:\/\/127\.0\.0\.1:\d+\/tunnel\/[A-Za-z0-9_-]{24}/);
    expect(result.stderr).toMatch(/no webhook arrived for task \S+; polling found it completed/);
  });

  it('--public-url with a path prefix: a tunnel that keeps the prefix reaches the listener on --listen-port', async () => {
    const port = await freePort();
    const result = await cli(['tasks', 'create', 'through a tunnel', '--webhook-listen', '--listen-port', String(port), '--public-url', `http://127.0.0.1:${port}/prefix`, ...NO_POLL]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`waiting for its webhook at http://127\\.0\\.0\\.1:${port}/prefix/[A-Za-z0-9_-]{24}`));
    expect(result.stderr).toMatch(/Webhook received/);
  });

  it.each([
    [['--webhook-listen', '--webhook', 'https://hooks.example/x'], /--webhook URL or --webhook-listen/],
    [['--webhook-listen', '--follow'], /--follow .* or --webhook-listen/],
    [['--webhook-listen', '--wait', '10'], /--wait .* does not go with --webhook-listen/],
    [['--webhook-listen', '--public-url', 'ftp://x.example'], /--public-url must be an http/],
    [['--public-url', 'https://x.example'], /go with --webhook-listen/],
    [['--webhook-listen', '--listen-port', '99999'], /--listen-port must be between/],
  ])('%j exits 2 before creating anything', async (args, message) => {
    const before = (await apiRequest<{ count: number }>(emulator.baseUrl, 'GET', '/tasks/browser-use/')).count;
    const result = await cli(['tasks', 'create', 'x', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect((await apiRequest<{ count: number }>(emulator.baseUrl, 'GET', '/tasks/browser-use/')).count).toBe(before);
  });
});
