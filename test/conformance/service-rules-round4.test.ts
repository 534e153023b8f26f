import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TASK_DURATION_MS, useEmulator } from '../emulator/harness.js';

// The service's rules of issue 41 (round 4), read from its code (gobii-platform c9929bf, DRF
// 3.16.1), each checked against the emulator. Each `it` names the service's file and function.

const h = useEmulator();
let counter = 0;
const name = (prefix: string) => `${prefix} round4 ${++counter}`;

type Agent = Record<string, unknown> & { id: string; name: string; updated_at: string };
type Task = Record<string, unknown> & { id: string; status: string; updated_at: string };
const newAgent = (body: Record<string, unknown> = {}) => h.api<Agent>('POST', '/agents/', { name: name('agent'), ...body });

// A webhook listener: records every delivery; a path of /fail answers 500 with an empty body.
const deliveries: { path: string; body: Record<string, unknown> }[] = [];
let hook = '';
const listener = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    deliveries.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown> });
    if (req.url === '/fail') res.writeHead(500).end();
    else res.writeHead(200).end('ok');
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  hook = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
const deliveriesFor = (id: string) => deliveries.filter((delivery) => delivery.body.id === id);

/** Sends a create that blocks (wait), and resolves once the emulator holds the new task: time can then be moved. */
async function createWaiting(body: Record<string, unknown>): Promise<{ answer: Promise<{ status: number; body: unknown }> }> {
  const before = h.emulator.state.tasks.size;
  const answer = h.raw('POST', '/tasks/browser-use/', body);
  await vi.waitFor(() => expect(h.emulator.state.tasks.size).toBe(before + 1), { interval: 5 });
  return { answer }; // not the promise itself, which an async function's result would wait for
}

describe('persistent agents\' updated_at (api/serializers.py PersistentAgentSerializer.update; Django auto_now with update_fields)', () => {
  it('stays on a PUT or PATCH that sets fields, on activate and deactivate; moves on an empty PATCH', async () => {
    const agent = await newAgent({ charter: 'Watch.' });
    const created = agent.updated_at;
    h.advance(1000);
    expect((await h.api<Agent>('PATCH', `/agents/${agent.id}/`, { charter: 'Watch more.' })).updated_at).toBe(created);
    expect((await h.api<Agent>('PUT', `/agents/${agent.id}/`, { name: agent.name, schedule: '@daily' })).updated_at).toBe(created);
    // api/views.py deactivate and api/services/agent_lifecycle.py activate_agent: save(update_fields=[...]).
    expect(await h.api('POST', `/agents/${agent.id}/deactivate/`)).toEqual({ status: 'deactivated', updated: true });
    expect(await h.api('POST', `/agents/${agent.id}/activate/`)).toEqual({ status: 'activated', updated: true });
    expect((await h.api<Agent>('GET', `/agents/${agent.id}/`)).updated_at).toBe(created);
    // No field set: save(update_fields=None), and auto_now stamps it.
    const touched = await h.api<Agent>('PATCH', `/agents/${agent.id}/`, {});
    expect(Date.parse(touched.updated_at)).toBe(Date.parse(created) + 1000);
  });
});

describe('cancel, delete and the webhook (api/views.py cancel_browser_use_task, perform_destroy; api/tasks/browser_agent_tasks.py _process_browser_use_task_core)', () => {
  it('cancel delivers the webhook before it answers', async () => {
    const task = await h.api<Task>('POST', '/tasks/browser-use/', { prompt: '[hang] x', webhook: `${hook}/cancel` });
    expect(await h.api('POST', `/tasks/browser-use/${task.id}/cancel/`)).toEqual({ status: 'cancelled', message: 'Task has been cancelled.' });
    expect(deliveriesFor(task.id).map((delivery) => delivery.body)).toEqual([{ id: task.id, status: 'cancelled', agent_id: null, result: null, message: 'Task has been cancelled.' }]);
    expect((await h.api<Task>('GET', `/tasks/browser-use/${task.id}/`)).webhook_last_status_code).toBe(200);
  });

  it('a deleted task still runs to its end and sends its webhook (perform_destroy only marks it deleted)', async () => {
    const task = await h.api<Task>('POST', '/tasks/browser-use/', { prompt: 'x', webhook: `${hook}/deleted` });
    await h.api('DELETE', `/tasks/browser-use/${task.id}/`);
    expect((await h.raw('GET', `/tasks/browser-use/${task.id}/`)).status).toBe(404);
    h.advance(TASK_DURATION_MS);
    await vi.waitFor(() => expect(deliveriesFor(task.id).map((delivery) => delivery.body.status)).toEqual(['completed']), { interval: 5 });
  });
});

describe('create with wait (api/views.py BrowserUseAgentTaskViewSet.perform_create and create)', () => {
  it('answers the record as created overlaid with the outcome: updated_at and the webhook fields as at creation', async () => {
    const { answer } = await createWaiting({ prompt: 'x', wait: 30, webhook: `${hook}/wait` });
    h.advance(TASK_DURATION_MS);
    const { status, body } = await answer;
    const task = body as Task;
    expect(status).toBe(201);
    expect(Object.keys(task).slice(0, 4)).toEqual(['id', 'agent_id', 'result', 'status']);
    expect(task).toMatchObject({ status: 'completed', agent_id: null, updated_at: task.created_at, webhook_last_called_at: null, webhook_last_status_code: null, error_message: null });
    await vi.waitFor(() => expect(deliveriesFor(task.id)).toHaveLength(1), { interval: 5 });
    const now = await h.api<Task>('GET', `/tasks/browser-use/${task.id}/`);
    expect(now.updated_at).not.toBe(task.created_at);
  });

  it('wait: 0 is no limit (Celery\'s AsyncResult.wait(timeout=0)): the answer comes when the task ends', async () => {
    let answered = false;
    const { answer } = await createWaiting({ prompt: '[hang] x', wait: 0 });
    void answer.then(() => (answered = true));
    h.advance(1351 * 1000); // past the longest wait there is
    const task = (await h.api<{ results: Task[] }>('GET', '/tasks/browser-use/?page_size=1')).results[0]!;
    expect(task.status).toBe('in_progress');
    expect(answered).toBe(false);
    await h.api('POST', `/tasks/browser-use/${task.id}/cancel/`);
    expect((await answer).body).toMatchObject({ id: task.id, status: 'cancelled' });
  });
});

describe('smaller values', () => {
  it('schedule "" is kept as "" (DRF CharField allow_blank; the model stores it)', async () => {
    const agent = await newAgent({ schedule: '@daily' });
    expect((await h.api<Agent>('PATCH', `/agents/${agent.id}/`, { schedule: '' })).schedule).toBe('');
  });

  it('an unknown preferred_contact_endpoint UUID is 400 (api/serializers.py PreferredEndpointInputField.to_internal_value)', async () => {
    const id = '3F2B8C1E-5D4A-4C7B-9E2F-1A2B3C4D5E6F';
    expect(await h.raw('POST', '/agents/', { name: name('endpoint'), preferred_contact_endpoint: ` ${id} ` })).toMatchObject({
      status: 400, body: { preferred_contact_endpoint: [`Contact endpoint does not exist: ${id.toLowerCase()}.`] },
    });
  });

  it('promptPreview is prompt[:157].rstrip() + "…" past 160 characters (console/agent_chat/timeline.py _serialize_processing_web_task)', async () => {
    const agent = await newAgent();
    const long = `[hang] ${'a'.repeat(200)}`; // cut inside the word
    const spaced = `[hang] ${'a'.repeat(148)}  ${'b'.repeat(10)}`; // the cut ends on spaces, stripped
    for (const body of [long, spaced]) await h.api('POST', `/agents/${agent.id}/messages/`, { channel: 'email', sender: 'emulator@example.com', body });
    const status = await h.api<{ processing_snapshot: { webTasks: { promptPreview: string }[] } }>('GET', `/agents/${agent.id}/processing-status/`);
    expect(status.processing_snapshot.webTasks.map((task) => task.promptPreview)).toEqual([`[hang] ${'a'.repeat(150)}…`, `[hang] ${'a'.repeat(148)}…`]);
  });

  it('a plan event names the agent by its first word (console/agent_chat/signals.py broadcast_plan_changes)', async () => {
    const agent = await newAgent({ name: name('Ada  Lovelace'), charter: 'Watch prices. Report weekly.' });
    const { events } = await h.api<{ events: Record<string, unknown>[] }>('GET', `/agents/${agent.id}/timeline/`);
    expect(events.find((event) => event.kind === 'plan')).toMatchObject({ agentName: 'Ada', displayText: 'Ada added 2 steps' });
  });

  it('a step\'s status is a tool call\'s: complete or error (timeline.py _serialize_step_entry)', async () => {
    const agent = await newAgent();
    for (const [body, status] of [['fine', 'complete'], ['[fail] no', 'error']] as const) {
      await h.api('POST', `/agents/${agent.id}/messages/`, { channel: 'email', sender: 'emulator@example.com', body });
      h.advance(TASK_DURATION_MS);
      const { events } = await h.api<{ events: { kind: string; entries?: { status: string }[] }[] }>('GET', `/agents/${agent.id}/timeline/`);
      expect(events.filter((event) => event.kind === 'steps').at(-1)?.entries?.[0]?.status, body).toBe(status);
    }
  });

  it('webhook_last_error is stripped (api/services/task_webhooks.py trigger_task_webhook)', async () => {
    const task = await h.api<Task>('POST', '/tasks/browser-use/', { prompt: 'x', webhook: `${hook}/fail` });
    h.advance(TASK_DURATION_MS);
    await vi.waitFor(async () => expect((await h.api<Task>('GET', `/tasks/browser-use/${task.id}/`)).webhook_last_status_code).toBe(500), { interval: 5 });
    expect((await h.api<Task>('GET', `/tasks/browser-use/${task.id}/`)).webhook_last_error).toBe('Received status 500:');
  });

  it('last_interaction_at is stamped before created_at (the model\'s default, then auto_now_add)', async () => {
    const agent = await newAgent();
    expect(Date.parse(agent.last_interaction_at as string)).toBeLessThan(Date.parse(agent.created_at as string));
  });

  it('credits_cost "" is null (DRF DecimalField.validate_empty_values with allow_null); on a create the default charge applies', async () => {
    const task = await h.api<Task>('POST', '/tasks/browser-use/', { prompt: '[pending] x', credits_cost: ' ' });
    expect(task.credits_cost).toBe('0.400');
    expect((await h.api<Task>('PATCH', `/tasks/browser-use/${task.id}/`, { credits_cost: '' })).credits_cost).toBeNull();
  });
});
