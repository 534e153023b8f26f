import { afterAll, describe, expect, it } from 'vitest';
import { TASK_DURATION_MS, useEmulator, type Raw } from '../emulator/harness.js';
import { createValidator, document, operations } from './contract.js';

// Every operation of the service's OpenAPI document against the emulator (in this process, port 0,
// on a ManualClock): each answer's status and body must match the contract derived from the
// document in ./contract.ts, where the overrides the service's code makes are written down with
// their reasons. Beyond the schemas, the checks below pin what a schema cannot say: keys the
// service omits, limits it clamps rather than refuses, and the exact error shapes.

const h = useEmulator();
const validator = createValidator(true);
/** operationId -> the statuses this suite saw it answer, each validated. */
const seen = new Map<string, Set<number>>();

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Calls one operation and checks the answer against the contract; returns it for further checks. */
async function call(operationId: string, path: string, body?: unknown, init?: Parameters<typeof h.raw>[3]): Promise<Raw> {
  const operation = operations.find((op) => op.operationId === operationId);
  if (!operation) throw new Error(`no operation ${operationId}`);
  const answer = await h.raw(operation.method, path, operation.method === 'GET' ? undefined : body, init);
  const schema = validator.schemaFor(operationId, answer.status);
  if (schema === undefined) {
    expect(answer.body, `${operationId} ${answer.status} has no body`).toBe('');
    expect(answer.contentType).toBeNull();
  } else {
    expect(answer.contentType, `${operationId} ${answer.status} answers JSON`).toBe('application/json');
    expect(validator.problems(schema, answer.body), `${operationId} ${answer.status} as ${schema}: ${JSON.stringify(answer.body)}`).toEqual([]);
  }
  if (!seen.has(operationId)) seen.set(operationId, new Set());
  seen.get(operationId)?.add(answer.status);
  return answer;
}

const ok = async <T = Record<string, unknown>>(operationId: string, path: string, status: number, body?: unknown): Promise<T> => {
  const answer = await call(operationId, path, body);
  expect(answer.status, `${operationId} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body as T;
};

type Task = Record<string, unknown> & { id: string; status: string };
type Agent = Record<string, unknown> & { id: string; name: string; browser_use_agent_id: string };

let counter = 0;
const name = (prefix: string) => `${prefix} ${++counter}`;

describe('conformance: utilities', () => {
  it('ping (GET /ping/): 200 PingResponse; 403 {detail} without or with a wrong key', async () => {
    expect(await ok('ping', '/ping/', 200)).toEqual({ pong: true, user: 'emulator@example.com' });
    expect((await call('ping', '/ping/', undefined, { apiKey: null })).body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect((await call('ping', '/ping/', undefined, { apiKey: 'wrong' })).body).toEqual({ detail: 'Invalid API key' });
  });
});

describe('conformance: browser-use agents', () => {
  it('listAgents, createAgent, getAgent, updateAgent, updateAgentStatusPartial, deleteAgent', async () => {
    const created = await ok<Agent>('createAgent', '/agents/browser-use/', 201, { name: name('legacy') });
    // Names up to 255 characters, as the service's model field takes them (the document says 64).
    const long = await ok<Agent>('createAgent', '/agents/browser-use/', 201, { name: String(++counter).padStart(255, 'n') });
    expect([...long.name]).toHaveLength(255);
    expect((await call('createAgent', '/agents/browser-use/', { name: 'x'.repeat(256) })).body).toEqual({ name: ['Ensure this field has no more than 255 characters.'] });
    expect((await call('createAgent', '/agents/browser-use/', {})).body).toEqual({ name: ['This field is required.'] });
    expect((await call('createAgent', '/agents/browser-use/', { name: created.name })).status).toBe(400);

    const page = await ok<{ results: Agent[] }>('listAgents', '/agents/browser-use/?page_size=1', 200);
    expect(page.results.map((agent) => agent.id)).toEqual([long.id]);
    expect(await ok('getAgent', `/agents/browser-use/${created.id}/`, 200)).toMatchObject({ id: created.id, user_email: 'emulator@example.com' });
    expect(await ok('updateAgent', `/agents/browser-use/${created.id}/`, 200, { name: name('renamed') })).toMatchObject({ id: created.id });
    expect((await call('updateAgent', `/agents/browser-use/${created.id}/`, {})).status).toBe(400);
    expect(await ok('updateAgentStatusPartial', `/agents/browser-use/${created.id}/`, 200, {})).toMatchObject({ id: created.id });
    expect((await call('deleteAgent', `/agents/browser-use/${created.id}/`)).status).toBe(204);
    for (const id of [created.id, UNKNOWN, 'not-a-uuid']) {
      for (const operationId of ['getAgent', 'updateAgent', 'updateAgentStatusPartial', 'deleteAgent']) {
        const answer = await call(operationId, `/agents/browser-use/${id}/`, { name: name('x') });
        // A well-formed id names the model (get_object_or_404); a malformed one is DRF's bare 404.
        const detail = id === 'not-a-uuid' ? 'Not found.' : 'No BrowserUseAgent matches the given query.';
        expect(answer, `${operationId} ${id}`).toMatchObject({ status: 404, body: { detail } });
      }
    }
  });
});

describe('conformance: tasks (agent-scoped and standalone)', () => {
  const scopes = [
    { label: 'agent-scoped', suffix: '', base: async () => `/agents/browser-use/${(await ok<Agent>('createAgent', '/agents/browser-use/', 201, { name: name('runner') })).id}/tasks/` },
    { label: 'standalone', suffix: '2', base: async () => '/tasks/browser-use/' },
  ];

  for (const { label, suffix, base: makeBase } of scopes) {
    it(`${label}: list, create (with and without wait), get, update, patch, cancel, result, delete`, async () => {
      const base = await makeBase();
      const op = (id: string) => `${id}${suffix}`;
      const listId = suffix ? 'listAllTasks' : 'listTasks';

      const task = await ok<Task>(op('assignTask'), base, 201, { prompt: 'Find the weather in Oslo', webhook: null });
      expect(task).toMatchObject({ status: 'pending', credits_cost: '0.400', webhook_last_called_at: null });
      // The service omits organization_id when the owner has none; a standalone task has agent null and no agent_id.
      expect(task).not.toHaveProperty('organization_id');
      if (suffix) {
        expect(task.agent).toBeNull();
        expect(task).not.toHaveProperty('agent_id');
      } else {
        expect(task.agent_id).toBe(base.split('/')[3]);
      }

      expect((await ok<{ results: Task[] }>(listId, base, 200)).results[0]?.id).toBe(task.id);
      expect(await ok(op('getTask'), `${base}${task.id}/`, 200)).toMatchObject({ id: task.id });
      expect(await ok(op('getTaskResult'), `${base}${task.id}/result/`, 200)).toMatchObject({ status: 'pending', message: 'Task is not yet completed.' });
      expect(await ok(op('updateTaskStatusPartial'), `${base}${task.id}/`, 200, { credits_cost: 2 })).toMatchObject({ credits_cost: '2.000' });
      expect(await ok(op('updateTask'), `${base}${task.id}/`, 200, { prompt: 'Find the weather in Bergen' })).toMatchObject({ prompt: 'Find the weather in Bergen' });

      h.advance(TASK_DURATION_MS / 5);
      // Once the task left pending, the service refuses a prompt even when it is the same one.
      const resent = await call(op('updateTask'), `${base}${task.id}/`, { prompt: 'Find the weather in Bergen' });
      expect(resent).toMatchObject({ status: 400, body: { status: ['Task can be modified only while it is PENDING.'], detail: ['Task can be modified only while it is PENDING.'] } });
      expect((await call(op('updateTaskStatusPartial'), `${base}${task.id}/`, { output_schema: null })).status).toBe(400);
      expect(await ok(op('updateTaskStatusPartial'), `${base}${task.id}/`, 200, { webhook: 'https://hooks.example/x' })).toMatchObject({ webhook: 'https://hooks.example/x' });

      h.advance(TASK_DURATION_MS);
      const result = await ok<Record<string, unknown>>(op('getTaskResult'), `${base}${task.id}/result/`, 200);
      expect(result).toMatchObject({ status: 'completed', result: 'Emulated result for: Find the weather in Bergen' });
      expect(result.agent_id).toBe(suffix ? null : base.split('/')[3]);
      expect(await ok(op('cancelTask'), `${base}${task.id}/cancel/`, 409)).toEqual({ detail: 'Task is already completed and cannot be cancelled.' });

      const hanging = await ok<Task>(op('assignTask'), base, 201, { prompt: '[hang] forever' });
      expect(await ok(op('cancelTask'), `${base}${hanging.id}/cancel/`, 200)).toEqual({ status: 'cancelled', message: 'Task has been cancelled.' });
      expect(await ok(op('getTaskResult'), `${base}${hanging.id}/result/`, 200)).toEqual({ id: hanging.id, agent_id: suffix ? null : base.split('/')[3], status: 'cancelled' });

      const failing = await ok<Task>(op('assignTask'), base, 201, { prompt: '[fail] please' });
      h.advance(TASK_DURATION_MS);
      expect(await ok(op('getTaskResult'), `${base}${failing.id}/result/`, 200)).toMatchObject({ status: 'failed', result: null, error_message: expect.any(String) });

      // wait: the request returns when the task ends (201 with the outcome) or when the wait runs out (wait_error).
      let before = h.clock.timers;
      const waiting = call(op('assignTask'), base, { prompt: 'wait for me', wait: 5 });
      await settle(() => h.clock.timers > before); // the request reached the emulator and waits
      h.advance(TASK_DURATION_MS);
      expect((await waiting).body).toMatchObject({ status: 'completed', result: 'Emulated result for: wait for me' });
      before = h.clock.timers;
      const timingOut = call(op('assignTask'), base, { prompt: '[hang] wait for me', wait: 1 });
      await settle(() => h.clock.timers > before);
      h.advance(1000);
      expect((await timingOut).body).toMatchObject({ status: 'in_progress', wait_error: 'The operation timed out.' });

      // Errors of create: 400 field errors (flat lists, secrets included), 402, 500.
      expect((await call(op('assignTask'), base, { prompt: { a: 1 } })).body).toEqual({ prompt: ['Not a valid string.'] });
      expect((await call(op('assignTask'), base, { prompt: 'x', wait: 1351 })).body).toEqual({ wait: ['Ensure this value is less than or equal to 1350.'] });
      expect((await call(op('assignTask'), base, { prompt: 'x', secrets: { 'https://a.example': { 'bad key': 'v' } } })).body).toEqual({ secrets: [expect.any(String)] });
      expect((await call(op('assignTask'), base, { prompt: 'x', secrets: { 'https://a.example': 'flat' } })).body).toEqual({ secrets: [expect.any(String)] });
      expect((await call(op('assignTask'), base, { prompt: '[no-credits]' })).status).toBe(402);
      expect((await call(op('assignTask'), base, { prompt: '[server-error]' })).status).toBe(500);

      expect((await call(op('deleteTask'), `${base}${task.id}/`)).status).toBe(204);
      for (const operationId of ['getTask', 'updateTask', 'updateTaskStatusPartial', 'deleteTask']) {
        expect((await call(op(operationId), `${base}${task.id}/`, {})).body, operationId).toEqual({ detail: 'No BrowserUseAgentTask matches the given query.' });
      }
      expect((await call(op('cancelTask'), `${base}${UNKNOWN}/cancel/`)).status).toBe(404);
      expect((await call(op('getTaskResult'), `${base}${UNKNOWN}/result/`)).status).toBe(404);
    });
  }

  it('standalone create runs the task under the body\'s `agent` (perform_create); the standalone list holds every task of the user', async () => {
    const agent = await ok<Agent>('createAgent', '/agents/browser-use/', 201, { name: name('owner') });
    const standalone = await ok<Task>('assignTask2', '/tasks/browser-use/', 201, { prompt: 'mine' });
    expect(standalone.agent).toBeNull();
    expect(standalone).not.toHaveProperty('agent_id');
    const owned = await ok<Task>('assignTask2', '/tasks/browser-use/', 201, { prompt: 'for the agent', agent: agent.id.toUpperCase() });
    expect(owned).toMatchObject({ agent: agent.id, agent_id: agent.id });
    expect((await ok<{ results: Task[] }>('listTasks', `/agents/browser-use/${agent.id}/tasks/`, 200)).results.map((task) => task.id)).toEqual([owned.id]);
    await ok('deleteTask2', `/tasks/browser-use/${owned.id}/`, 204);
    const scoped = await ok<Task>('assignTask', `/agents/browser-use/${agent.id}/tasks/`, 201, { prompt: 'under an agent' });
    const all = await ok<{ results: Task[] }>('listAllTasks', '/tasks/browser-use/?page_size=2', 200);
    expect(all.results.map((task) => task.id)).toEqual([scoped.id, standalone.id]);
    expect(all.results[1]).not.toHaveProperty('agent_id');
    // A task under an agent is found through the standalone routes too.
    expect(await ok('getTask2', `/tasks/browser-use/${scoped.id}/`, 200)).toMatchObject({ agent_id: agent.id });
    // The agent-scoped routes 404 for an unknown agent and for a task of another scope.
    expect((await call('listTasks', `/agents/browser-use/${UNKNOWN}/tasks/`)).body).toEqual({ detail: 'No BrowserUseAgent matches the given query.' });
    expect((await call('getTask', `/agents/browser-use/${agent.id}/tasks/${standalone.id}/`)).status).toBe(404);
  });

  it('clamps page_size to 100, falls back to 10 for an invalid one, and answers 404 "Invalid page." past the end', async () => {
    for (let i = 0; i < 105; i++) await h.api('POST', '/tasks/browser-use/', { prompt: `[hang] bulk ${i}` });
    const big = await ok<{ count: number; results: unknown[]; next: string }>('listAllTasks', '/tasks/browser-use/?page_size=1000', 200);
    expect(big.results).toHaveLength(100);
    expect(big.next).toContain('page=2');
    for (const size of ['0', '-5', 'abc', '']) expect((await ok<{ results: unknown[] }>('listAllTasks', `/tasks/browser-use/?page_size=${size}`, 200)).results, size).toHaveLength(10);
    expect((await call('listAllTasks', '/tasks/browser-use/?page=99999')).body).toEqual({ detail: 'Invalid page.' });
    expect((await call('listAllTasks', '/tasks/browser-use/?page=0')).status).toBe(404);
    expect((await call('listAgents', '/agents/browser-use/?page=2&page_size=100000')).status).toBe(404);
  });
});

describe('conformance: persistent agents', () => {
  it('CRUD: listPersistentAgents, createPersistentAgent, getPersistentAgent, updatePersistentAgent, partialUpdatePersistentAgent, deletePersistentAgent', async () => {
    const agent = await ok<Agent>('createPersistentAgent', '/agents/', 201, { name: name('persistent'), charter: 'Watch prices. Report weekly.' });
    expect(agent.user_id).toBe('42');
    expect((await call('createPersistentAgent', '/agents/', { name: 'x'.repeat(256) })).status).toBe(400);
    expect((await ok<{ results: Agent[] }>('listPersistentAgents', '/agents/?page_size=500', 200)).results[0]?.id).toBe(agent.id);
    expect(await ok('getPersistentAgent', `/agents/${agent.id}/`, 200)).toMatchObject({ short_description: 'Watch prices.' });
    expect(await ok('updatePersistentAgent', `/agents/${agent.id}/`, 200, { name: name('replaced'), charter: 'New.' })).toMatchObject({ charter: 'New.' });
    expect(await ok('partialUpdatePersistentAgent', `/agents/${agent.id}/`, 200, { whitelist_policy: 'manual' })).toMatchObject({ whitelist_policy: 'manual' });
    expect((await call('partialUpdatePersistentAgent', `/agents/${agent.id}/`, { life_state: 'paused' })).body).toEqual({ life_state: ['"paused" is not a valid choice.'] });
    expect((await call('deletePersistentAgent', `/agents/${agent.id}/`)).status).toBe(204);
  });

  it('actions: activate, deactivate, messages, processing-status, timeline, web-tasks, schedule preview', async () => {
    const agent = await ok<Agent>('createPersistentAgent', '/agents/', 201, { name: name('actions'), charter: 'Help.' });
    expect(await ok('deactivatePersistentAgent', `/agents/${agent.id}/deactivate/`, 200)).toEqual({ status: 'deactivated', updated: true });
    expect(await ok('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, 409, { channel: 'email', sender: 'emulator@example.com', body: 'hi' })).toMatchObject({ code: 'agent_inactive' });
    expect(await ok('activatePersistentAgent', `/agents/${agent.id}/activate/`, 200)).toEqual({ status: 'activated', updated: true });
    await ok('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, 201, { channel: 'email', sender: 'emulator@example.com', body: 'Find flights', subject: 'Trip' });
    expect((await call('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, { channel: 'sms', sender: 'me', body: 'hi' })).body).toEqual({
      recipient: ['Agent has no sms endpoint.'],
    });
    expect((await call('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, {})).status).toBe(400);
    const busy = await ok<{ processing_active: boolean }>('getPersistentAgentProcessingStatus', `/agents/${agent.id}/processing-status/`, 200);
    expect(busy.processing_active).toBe(true);
    h.advance(TASK_DURATION_MS);
    const timeline = await ok<{ events: { kind: string }[] }>('getPersistentAgentTimeline', `/agents/${agent.id}/timeline/?limit=500`, 200);
    expect(timeline.events.map((event) => event.kind)).toEqual(['thinking', 'plan', 'message', 'steps', 'message']);
    expect((await ok<{ events: unknown[] }>('getPersistentAgentTimeline', `/agents/${agent.id}/timeline/?direction=older&limit=2`, 200)).events).toHaveLength(2);
    expect((await call('getPersistentAgentTimeline', `/agents/${agent.id}/timeline/?direction=sideways`)).status).toBe(400);
    expect(await ok('listWebTasks', `/agents/${agent.id}/web-tasks/?limit=9999`, 200)).toMatchObject({ limit: 200, results: [{ status: 'completed' }] });
    expect(await ok('listWebTasks', `/agents/${agent.id}/web-tasks/?limit=-1`, 200)).toMatchObject({ limit: 1 });
    expect((await call('listWebTasks', `/agents/${agent.id}/web-tasks/?status=done`)).status).toBe(400);
    expect(await ok('previewPersistentAgentSchedule', `/agents/${agent.id}/schedule/preview/`, 200, { schedule: '' })).toEqual({ valid: true, disabled: true, description: null });
    expect((await call('previewPersistentAgentSchedule', `/agents/${agent.id}/schedule/preview/`, {})).body).toEqual({ schedule: ['This field is required.'] });
    expect((await call('previewPersistentAgentSchedule', `/agents/${agent.id}/schedule/preview/`, { schedule: null })).body).toEqual({ schedule: ['This field may not be null.'] });
  });

  it('answers 404 JSON for unknown and malformed ids on every router route, 405 for a method the route lacks', async () => {
    const routes: [string, string][] = [
      ['getPersistentAgent', ''],
      ['updatePersistentAgent', ''],
      ['partialUpdatePersistentAgent', ''],
      ['deletePersistentAgent', ''],
      ['activatePersistentAgent', 'activate/'],
      ['deactivatePersistentAgent', 'deactivate/'],
      ['sendPersistentAgentMessage', 'messages/'],
      ['getPersistentAgentProcessingStatus', 'processing-status/'],
      ['getPersistentAgentTimeline', 'timeline/'],
      ['listWebTasks', 'web-tasks/'],
      ['previewPersistentAgentSchedule', 'schedule/preview/'],
    ];
    for (const id of [UNKNOWN, 'not-a-uuid', '12345']) {
      for (const [operationId, suffix] of routes) {
        const answer = await call(operationId, `/agents/${id}/${suffix}`, { channel: 'email', sender: 'emulator@example.com', body: 'x', schedule: '' });
        const detail = id === UNKNOWN ? 'No PersistentAgent matches the given query.' : 'Not found.';
        expect(answer, `${operationId} ${id}`).toMatchObject({ status: 404, body: { detail }, contentType: 'application/json' });
      }
    }
    const agent = await h.api<Agent>('POST', '/agents/', { name: name('methods') });
    expect((await h.raw('GET', `/agents/${agent.id}/activate/`)).body).toEqual({ detail: 'Method "GET" not allowed.' });
  });
});

/** A form body (urlencoded, or multipart when asked) for `call`'s init. */
function form(fields: [string, string][], multipart = false): { rawBody: string; headers: Record<string, string> } {
  if (!multipart) return { rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  const boundary = 'agentctl-test-boundary';
  const parts = fields.map(([key, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`);
  return { rawBody: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('conformance: what the service\'s code does (issue 22)', () => {
  it('accepts form bodies (urlencoded and multipart) on every operation with a body, read as DRF reads each field', async () => {
    for (const multipart of [false, true]) {
      const send = (operationId: string, path: string, fields: [string, string][]) => call(operationId, path, undefined, form(fields, multipart));
      const legacy = (await send('createAgent', '/agents/browser-use/', [['name', name('form')]])).body as Agent;
      expect(legacy.id).toBeDefined();
      expect((await send('updateAgent', `/agents/browser-use/${legacy.id}/`, [['name', name('form put')]])).status).toBe(200);
      expect((await send('updateAgentStatusPartial', `/agents/browser-use/${legacy.id}/`, [['name', name('form patch')]])).status).toBe(200);

      for (const [suffix, base] of [['', `/agents/browser-use/${legacy.id}/tasks/`], ['2', '/tasks/browser-use/']] as const) {
        // A JSON field (output_schema) is JSON text in a form; numbers and booleans are their text.
        const created = await send(`assignTask${suffix}`, base, [['prompt', 'from a form'], ['output_schema', '{"type":"object"}'], ['credits_cost', '1.5'], ['webhook', '']]);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const task = created.body as Task;
        expect(task).toMatchObject({ prompt: 'from a form', output_schema: { type: 'object' }, credits_cost: '1.500', webhook: null, requires_vision: false });
        expect((await send(`updateTaskStatusPartial${suffix}`, `${base}${task.id}/`, [['requires_vision', 'true']])).body).toMatchObject({ requires_vision: true });
        expect((await send(`updateTask${suffix}`, `${base}${task.id}/`, [['prompt', 'replaced']])).body).toMatchObject({ prompt: 'replaced', requires_vision: false });
        expect((await send(`assignTask${suffix}`, base, [['output_schema', '{nope']])).body).toEqual({ output_schema: ['Value must be valid JSON.'] });
        // A form cannot nest secrets: `secrets.<domain>=value` is the flat (legacy) shape the service refuses.
        expect((await send(`assignTask${suffix}`, base, [['prompt', 'x'], ['secrets.https://a.example', 'v']])).body).toEqual({
          secrets: ["Secrets must be in domain-specific format. Use: {'https://example.com': {'x_api_key': 'value'}} instead of: {'x_api_key': 'value'}"],
        });
      }

      // A full form without is_active makes the agent inactive (DRF reads a missing checkbox as false).
      const agent = (await send('createPersistentAgent', '/agents/', [['name', name('form agent')], ['charter', 'Help.'], ['proactive_opt_in', 'off']])).body as Agent;
      // proactive_opt_in is not written on create (PersistentAgentSerializer.create), whatever the form says.
      expect(agent).toMatchObject({ is_active: false, charter: 'Help.', proactive_opt_in: true });
      expect((await send('partialUpdatePersistentAgent', `/agents/${agent.id}/`, [['charter', 'Still help.']])).body).toMatchObject({ is_active: false, charter: 'Still help.' });
      expect((await send('updatePersistentAgent', `/agents/${agent.id}/`, [['is_active', 'on'], ['schedule', '']])).body).toMatchObject({ is_active: true, schedule: '' });
      expect((await send('activatePersistentAgent', `/agents/${agent.id}/activate/`, [['ignored', 'x']])).status).toBe(200);
      expect((await send('deactivatePersistentAgent', `/agents/${agent.id}/deactivate/`, [])).status).toBe(200);
      await send('activatePersistentAgent', `/agents/${agent.id}/activate/`, []);
      const sent = await send('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, [['channel', 'email'], ['sender', 'emulator@example.com'], ['body', 'hi'], ['metadata.source', 'form']]);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect((await send('previewPersistentAgentSchedule', `/agents/${agent.id}/schedule/preview/`, [['schedule', '']])).body).toEqual({ valid: true, disabled: true, description: null });
    }
    // Any other content type of a body is 415, as DRF answers.
    const plain = await call('createAgent', '/agents/browser-use/', undefined, { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(plain).toMatchObject({ status: 415, body: { detail: 'Unsupported media type "text/plain" in request.' } });
  });

  it('validates `agent` in a task body: a malformed id, an unknown one, a deleted persistent agent\'s', async () => {
    for (const base of ['/tasks/browser-use/', `/agents/browser-use/${(await h.api<Agent>('POST', '/agents/browser-use/', { name: name('scope') })).id}/tasks/`]) {
      const assign = base.startsWith('/tasks') ? 'assignTask2' : 'assignTask';
      expect((await call(assign, base, { prompt: 'x', agent: 'nope' })).body).toEqual({ agent: ['Must be a valid UUID.'] });
      expect((await call(assign, base, { prompt: 'x', agent: UNKNOWN.toUpperCase() })).body).toEqual({ agent: [`Invalid pk "${UNKNOWN}" - object does not exist.`] });
      // Every bad field at once, as a serializer reports them.
      expect((await call(assign, base, { prompt: true, agent: 5, wait: -1 })).body).toEqual({
        prompt: ['Not a valid string.'],
        agent: ['Invalid pk "00000000-0000-0000-0000-000000000005" - object does not exist.'],
        wait: ['Ensure this value is greater than or equal to 0.'],
      });
    }
    const persistent = await h.api<Agent>('POST', '/agents/', { name: name('gone') });
    await h.api('DELETE', `/agents/${persistent.id}/`);
    expect((await call('assignTask2', '/tasks/browser-use/', { prompt: 'x', agent: persistent.browser_use_agent_id })).body).toEqual({ agent: ['Specified agent has been deleted.'] });
  });

  it('checks secrets with the service\'s rules and words (wildcard TLDs, key patterns, limits)', async () => {
    const secrets = async (value: unknown) => (await call('assignTask2', '/tasks/browser-use/', { prompt: 'x', secrets: value })).body;
    expect(await secrets({ 'example.*': { KEY: 'v' } })).toEqual({ secrets: ['Wildcards in TLD part are not allowed (e.g., google.* would match google.ninja)'] });
    expect(await secrets({ 'https://*.com': { KEY: 'v' } })).toEqual({ secrets: ['Wildcards in TLD part are not allowed (e.g., *.com would match any .com domain)'] });
    expect(await secrets({ 'https://g*e.com': { KEY: 'v' } })).toEqual({ secrets: ['Embedded wildcards are not supported (e.g., g*e.com)'] });
    expect(await secrets({ 'ftp2://a.example': { KEY: 'v' } })).toEqual({ secrets: ["Invalid protocol 'ftp2'. Only http, https, http*, and chrome-extension are supported"] });
    expect(await secrets({ 'https://a.example': { '1KEY': 'v' } })).toEqual({ secrets: ['Secret key must be alphanumeric with underscores only'] });
    expect(await secrets({ 'https://a.example': { KEY: ' ' } })).toEqual({ secrets: ['Secret value cannot be empty'] });
    expect(await secrets({})).toEqual({ secrets: ['Secrets dictionary cannot be empty'] });
    expect(await secrets([])).toEqual({ secrets: ['Expected a dictionary of items but got type "list".'] });
    expect((await call('assignTask2', '/tasks/browser-use/', { prompt: 'x', secrets: { 'https://*.example.com': { API_KEY: 'v' } } })).status).toBe(201);
  });

  it('checks credits_cost as a DecimalField(12, 3, min 0.001) and webhook as a URLField with http/https', async () => {
    const body = async (fields: Record<string, unknown>) => (await call('assignTask2', '/tasks/browser-use/', { prompt: 'x', ...fields })).body;
    expect(await body({ credits_cost: '1.0000' })).toEqual({ credits_cost: ['Ensure that there are no more than 3 decimal places.'] });
    expect(await body({ credits_cost: 1234567890 })).toEqual({ credits_cost: ['Ensure that there are no more than 9 digits before the decimal point.'] });
    expect(await body({ credits_cost: 0 })).toEqual({ credits_cost: ['Ensure this value is greater than or equal to 0.001.'] });
    expect(await body({ credits_cost: 'abc' })).toEqual({ credits_cost: ['A valid number is required.'] });
    expect(await body({ webhook: 'ftp://files.example/x' })).toEqual({ webhook: ['webhook must use http or https.'] });
    expect(await body({ webhook: '' })).toEqual({ webhook: ['This field may not be blank.'] });
    expect(await body({ prompt: '  padded  ', credits_cost: '2.5' })).toMatchObject({ prompt: 'padded', credits_cost: '2.500' });
  });

  it('persistent agents: default whitelist_policy manual, the whole name on the browser-use agent, names unique across both kinds', async () => {
    const long = `${'n'.repeat(250)}${++counter}`;
    const agent = await ok<Agent>('createPersistentAgent', '/agents/', 201, { name: long });
    expect(agent.whitelist_policy).toBe('manual');
    expect((await ok<Agent>('getAgent', `/agents/browser-use/${agent.browser_use_agent_id}/`, 200)).name).toBe(long);
    const legacy = await ok<Agent>('createAgent', '/agents/browser-use/', 201, { name: name('taken') });
    expect((await call('createPersistentAgent', '/agents/', { name: legacy.name })).body).toEqual({ name: ['Browser use agent with this User and Name already exists.'] });
    // Deleted: its browser-use agent answers 404 everywhere an agent is looked up.
    await ok('deletePersistentAgent', `/agents/${agent.id}/`, 204);
    for (const [operationId, suffix, detail] of [['getAgent', '', 'No BrowserUseAgent matches the given query.'], ['listTasks', 'tasks/', 'Not found.'], ['assignTask', 'tasks/', 'Not found.']] as const) {
      expect(await call(operationId, `/agents/browser-use/${agent.browser_use_agent_id}/${suffix}`, { prompt: 'x' }), operationId).toMatchObject({ status: 404, body: { detail } });
    }
  });

  it('messages: 409 to an inactive agent before the body is read; the event carries every key of the service\'s serializer', async () => {
    const agent = await ok<Agent>('createPersistentAgent', '/agents/', 201, { name: name('messages'), is_active: false });
    const inactive = await call('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, undefined, { rawBody: '{not json' });
    expect(inactive).toMatchObject({ status: 409, body: { code: 'agent_inactive' } });
    await ok('activatePersistentAgent', `/agents/${agent.id}/activate/`, 200);
    // The recipient is resolved before the allowlist is checked, in the service's words.
    expect((await call('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, { channel: 'sms', sender: 'stranger', body: 'x' })).body).toEqual({ recipient: ['Agent has no sms endpoint.'] });
    expect((await call('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, { channel: 'email', sender: 'stranger@example.com', body: 'x' })).body).toEqual({
      detail: 'Sender is not allowed to message this agent.',
    });
    const sent = await ok<{ event: { message: Record<string, unknown> } }>('sendPersistentAgentMessage', `/agents/${agent.id}/messages/`, 201, {
      channel: 'email',
      sender: 'emulator@example.com',
      subject: 'Hello',
      body: '  Hi  ',
    });
    expect(Object.keys(sent.event.message)).toEqual([
      'id', 'inReplyToMessageId', 'cursor', 'bodyHtml', 'bodyText', 'subject', 'isOutbound', 'channel', 'attachments', 'timestamp', 'relativeTimestamp',
      'isPeer', 'peerAgent', 'peerLinkId', 'selfAgentName', 'senderUserId', 'senderName', 'senderAddress', 'recipientName', 'recipientAddress', 'replyTo',
      'ccAddresses', 'bccAddresses', 'sourceKind', 'sourceLabel', 'channelLabel', 'webhookMeta', 'structuredPayload', 'viewerFeedback', 'deliveryStatus', 'outboxReview',
    ]);
    expect(sent.event.message).toMatchObject({ subject: null, bodyText: 'Hi', recipientAddress: expect.stringContaining('@'), inReplyToMessageId: null });
  });

  it('persistent agents carry the serializer\'s planning, contact approval, LLM tier and daily credit limit fields', async () => {
    const agent = await ok<Agent>('createPersistentAgent', '/agents/', 201, { name: name('tiers'), preferred_llm_tier: 'premium', daily_credit_limit: '40' });
    expect(agent).toMatchObject({ planning_state: 'skipped', contact_approval_mode: 'require_approval', preferred_llm_tier: 'premium', daily_credit_limit: 40 });
    expect(await ok('partialUpdatePersistentAgent', `/agents/${agent.id}/`, 200, { contact_approval_mode: 'auto_approve_email', preferred_llm_tier: null, daily_credit_limit: null })).toMatchObject({
      contact_approval_mode: 'auto_approve_email',
      preferred_llm_tier: 'standard',
      daily_credit_limit: null,
    });
    expect((await call('partialUpdatePersistentAgent', `/agents/${agent.id}/`, { contact_approval_mode: 'never', preferred_llm_tier: 'gold', daily_credit_limit: -1 })).body).toEqual({
      contact_approval_mode: ['"never" is not a valid choice.'],
      preferred_llm_tier: ['Object with key=gold does not exist.'],
      daily_credit_limit: ['Ensure this value is greater than or equal to 0.'],
    });
    const listed = (await ok<{ results: Record<string, unknown>[] }>('listPersistentAgents', '/agents/?page_size=1', 200)).results[0];
    expect(listed).toMatchObject({ planning_state: 'skipped', contact_approval_mode: 'auto_approve_email' });
    expect(listed).not.toHaveProperty('preferred_llm_tier');
  });

  it('a wait answer is the service\'s outcome over the record: agent_id even when null, no result for a failure, in_progress when time ran out', async () => {
    // Each request has arrived once its wait's timer is set (the task's steps are scheduled before it).
    let before = h.clock.timers;
    const failing = call('assignTask2', '/tasks/browser-use/', { prompt: '[fail] now', wait: 5 });
    await settle(() => h.clock.timers >= before + 1);
    h.advance(TASK_DURATION_MS);
    const failed = (await failing).body as Record<string, unknown>;
    expect(failed).toMatchObject({ status: 'failed', agent_id: null, agent: null, error_message: expect.any(String) });
    expect(failed).not.toHaveProperty('result');
    before = h.clock.timers;
    const queued = call('assignTask2', '/tasks/browser-use/', { prompt: '[pending] stays queued', wait: 1 });
    await settle(() => h.clock.timers >= before + 1);
    h.advance(1000);
    expect((await queued).body).toMatchObject({ status: 'in_progress', wait_error: 'The operation timed out.' });
  });

  it('browser-use agents describe themselves from the persistent agent behind them, or as initializing', async () => {
    const bare = await ok<Record<string, unknown>>('createAgent', '/agents/browser-use/', 201, { name: name('bare') });
    expect(bare).toMatchObject({ listing_description: 'Agent is initializing…', listing_description_source: 'placeholder', mini_description: 'Agent', mini_description_source: 'placeholder' });
    const persistent = await ok<Agent>('createPersistentAgent', '/agents/', 201, { name: name('described'), charter: 'Watch   prices.\nReport weekly.' });
    expect(await ok('getAgent', `/agents/browser-use/${persistent.browser_use_agent_id}/`, 200)).toMatchObject({ listing_description: 'Watch prices. Report weekly.', listing_description_source: 'charter' });
  });

  it('timeline and web-tasks: the views\' own errors, one at a time', async () => {
    const agent = await ok<Agent>('createPersistentAgent', '/agents/', 201, { name: name('views') });
    expect((await call('getPersistentAgentTimeline', `/agents/${agent.id}/timeline/?direction=up&limit=x`)).body).toEqual({ direction: ['Invalid direction parameter.'] });
    expect((await call('getPersistentAgentTimeline', `/agents/${agent.id}/timeline/?limit=`)).body).toEqual({ limit: ['limit must be an integer'] });
    expect((await call('listWebTasks', `/agents/${agent.id}/web-tasks/?status=done&limit=x`)).body).toEqual({ status: ['Invalid status filter.'] });
    expect((await call('listWebTasks', `/agents/${agent.id}/web-tasks/?limit=x`)).body).toEqual({ limit: ['limit must be an integer'] });
  });
});

describe('conformance: transport', () => {
  it('a body of only whitespace is a 400 parse error; malformed JSON too; a body that is not an object is a 400 non_field_errors', async () => {
    for (const rawBody of [' ', '\n\t  ']) {
      const answer = await call('createPersistentAgent', '/agents/', undefined, { rawBody });
      expect(answer.status).toBe(400);
      expect((answer.body as { detail: string }).detail).toMatch(/^JSON parse error - Expecting value: line \d+ column \d+ \(char \d+\)$/);
    }
    expect((await h.raw('POST', '/agents/', undefined, { rawBody: '{"name":' })).body).toEqual({ detail: expect.stringMatching(/^JSON parse error - /) });
    expect((await h.raw('POST', '/agents/', undefined, { rawBody: '[1]' })).body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    // An empty body is no data at all.
    expect((await h.raw('POST', '/agents/', undefined, { rawBody: '' })).status).toBe(201);
  });

  it('answers 413 (the proxy page) for a body over the limit, before reading it all', async () => {
    const answer = await h.raw('POST', '/tasks/browser-use/', undefined, { rawBody: JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 1) }) });
    expect(answer.status).toBe(413);
    expect(answer.contentType).toBe('text/html');
    expect(String(answer.body)).toContain('413 Request Entity Too Large');
  });

  it('keeps HTML 404s for unknown routes and malformed ids in <uuid:> paths (docs/service-behaviour.md), and redirects a GET without the slash', async () => {
    for (const path of ['/nope/', '/tasks/browser-use/not-a-uuid/', '/agents/browser-use/not-a-uuid/tasks/']) {
      const answer = await h.raw('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.contentType, path).toContain('text/html');
    }
    const redirect = await h.raw('GET', '/ping');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toMatch(/\/ping\/$/);
  });
});

/**
 * Lets the emulator take in a request that is on its way (real I/O, no clock involved): as long as
 * it takes, however busy the machine (giving up after a second advanced the clock too early).
 */
async function settle(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

afterAll(() => {
  // Every one of the document's operations was exercised, each with at least one 2xx answer.
  const missing = operations.filter((op) => ![...(seen.get(op.operationId) ?? [])].some((status) => status < 300)).map((op) => op.operationId);
  expect(missing, `operations not exercised with a success answer (${document.info.title} ${document.info.version})`).toEqual([]);
  expect(operations).toHaveLength(36);
});
