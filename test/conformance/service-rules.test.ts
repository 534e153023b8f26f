import { describe, expect, it, vi } from 'vitest';
import { TASK_DURATION_MS, useEmulator } from '../emulator/harness.js';

// The service's own rules beyond its OpenAPI document, read from its code (gobii-platform
// c9929bf, DRF 3.16), each checked against the emulator: who may message an agent, what a 404
// says, how agents are created and changed, the timeline's event shapes, and the smaller ones.
// Each `it` names the service's file and function that decides it.

const h = useEmulator();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const OWNER_ID = 42;
let counter = 0;
const name = (prefix: string) => `${prefix} rules ${++counter}`;

type Agent = Record<string, unknown> & { id: string; name: string; browser_use_agent_id: string };
const newAgent = (body: Record<string, unknown> = {}) => h.api<Agent>('POST', '/agents/', { name: name('agent'), ...body });
const send = (agent: Agent, body: Record<string, unknown>) => h.raw('POST', `/agents/${agent.id}/messages/`, { body: 'hello', ...body });
const FORBIDDEN = { status: 403, body: { detail: 'Sender is not allowed to message this agent.' } };
const webUser = (agent: Agent, user = OWNER_ID) => `web://user/${user}/agent/${agent.id}`;

describe('messages: who may write (api/models.py PersistentAgent.is_sender_whitelisted; api/views.py PersistentAgentViewSet.create_message)', () => {
  it('refuses slack, discord and other channels (403) once the recipient is resolved', async () => {
    const agent = await newAgent();
    for (const channel of ['slack', 'discord', 'other']) {
      expect(await send(agent, { channel, sender: 'emulator@example.com', recipient: '#general' }), channel).toMatchObject(FORBIDDEN);
      // Without a recipient the endpoint lookup comes first (_resolve_agent_recipient): 400.
      expect((await send(agent, { channel, sender: 'emulator@example.com' })).body, channel).toEqual({ recipient: [`Agent has no ${channel} endpoint.`] });
    }
  });

  it('on the web, hears only web://user/<owner id>/agent/<this agent> (_is_allowed_web_address)', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    const recipient = `web://agent/${agent.id}`;
    for (const sender of ['me', `web:${agent.id}`, webUser(other), webUser(agent, 7), `web://agent/${agent.id}`]) {
      expect(await send(agent, { channel: 'web', sender, recipient }), sender).toMatchObject(FORBIDDEN);
    }
    expect((await send(agent, { channel: 'web', sender: ` ${webUser(agent)} `, recipient })).status).toBe(201);
  });

  it('a web message without recipient needs the agent\'s web endpoint, which the MCP send makes its own (web://agent/<id>)', async () => {
    const agent = await newAgent();
    expect((await send(agent, { channel: 'web', sender: webUser(agent) })).body).toEqual({ recipient: ['Agent has no web endpoint.'] });
    // Named explicitly, the address is nobody's yet: stored with no owner (ingest_inbound_message), no reply.
    const lost = await send(agent, { channel: 'web', sender: webUser(agent), recipient: `web://agent/${agent.id}` });
    expect(lost.status).toBe(201);
    expect((lost.body as { event: { message: { selfAgentName: unknown } } }).event.message.selfAgentName).toBeNull();
    // remote_mcp._tool_send_agent_message -> inject_internal_web_message: "Ensure agent owns the target endpoint".
    await h.api('POST', '/mcp/', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gobii_send_agent_message', arguments: { agent_id: agent.id, body: 'hello' } } });
    h.advance(TASK_DURATION_MS);
    const timeline = await h.api<{ events: { kind: string; message?: Record<string, unknown> }[] }>('GET', `/agents/${agent.id}/timeline/`);
    const reply = timeline.events.find((event) => event.kind === 'message' && event.message?.isOutbound === true);
    expect(reply?.message).toMatchObject({ channel: 'web', senderAddress: `web://agent/${agent.id}` });
    const owned = await send(agent, { channel: 'web', sender: webUser(agent) });
    expect(owned.status).toBe(201);
    expect((owned.body as { event: { message: { selfAgentName: unknown } } }).event.message.selfAgentName).toBe(agent.name);
  });

  it('under policy default hears only the owner, as under manual (_is_allowed_default, _is_in_manual_allowlist)', async () => {
    for (const policy of ['default', 'manual']) {
      const agent = await newAgent({ whitelist_policy: policy });
      expect(await send(agent, { channel: 'email', sender: 'stranger@example.com' }), policy).toMatchObject(FORBIDDEN);
      expect((await send(agent, { channel: 'email', sender: 'Owner <Emulator@Example.com>' })).status, policy).toBe(201);
      expect((await send(agent, { channel: 'sms', sender: '+15555550100', recipient: '+15550001111' })).status, policy).toBe(201);
      expect(await send(agent, { channel: 'sms', sender: '+15550009999', recipient: '+15550001111' }), policy).toMatchObject(FORBIDDEN);
    }
  });
});

describe('unknown ids (django.shortcuts.get_object_or_404 through DRF generics.get_object_or_404)', () => {
  it('a well-formed unknown id names the model; a malformed one on a router route says "Not found."', async () => {
    const none = (model: string) => ({ status: 404, body: { detail: `No ${model} matches the given query.` } });
    const legacy = await h.api<Agent>('POST', '/agents/browser-use/', { name: name('legacy') });
    const task = await h.api<{ id: string }>('POST', '/tasks/browser-use/', { prompt: 'x' });
    const checks: [string, string, string][] = [
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method): [string, string, string] => [method, `/agents/browser-use/${UNKNOWN}/`, 'BrowserUseAgent']),
      ...['GET', 'POST'].map((method): [string, string, string] => [method, `/agents/browser-use/${UNKNOWN}/tasks/`, 'BrowserUseAgent']),
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method): [string, string, string] => [method, `/agents/browser-use/${UNKNOWN}/tasks/${task.id}/`, 'BrowserUseAgent']),
      ['POST', `/agents/browser-use/${UNKNOWN}/tasks/${task.id}/cancel/`, 'BrowserUseAgent'],
      ['GET', `/agents/browser-use/${UNKNOWN}/tasks/${task.id}/result/`, 'BrowserUseAgent'],
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method): [string, string, string] => [method, `/agents/browser-use/${legacy.id}/tasks/${UNKNOWN}/`, 'BrowserUseAgentTask']),
      ['POST', `/agents/browser-use/${legacy.id}/tasks/${UNKNOWN}/cancel/`, 'BrowserUseAgentTask'],
      ['GET', `/agents/browser-use/${legacy.id}/tasks/${task.id}/result/`, 'BrowserUseAgentTask'],
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method): [string, string, string] => [method, `/tasks/browser-use/${UNKNOWN}/`, 'BrowserUseAgentTask']),
      ['POST', `/tasks/browser-use/${UNKNOWN}/cancel/`, 'BrowserUseAgentTask'],
      ['GET', `/tasks/browser-use/${UNKNOWN}/result/`, 'BrowserUseAgentTask'],
      ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method): [string, string, string] => [method, `/agents/${UNKNOWN}/`, 'PersistentAgent']),
      ...['activate/', 'deactivate/', 'messages/', 'schedule/preview/'].map((suffix): [string, string, string] => ['POST', `/agents/${UNKNOWN}/${suffix}`, 'PersistentAgent']),
      ...['processing-status/', 'timeline/', 'web-tasks/'].map((suffix): [string, string, string] => ['GET', `/agents/${UNKNOWN}/${suffix}`, 'PersistentAgent']),
    ];
    // 29 operations in all; the agent-scoped task routes are tried with an unknown agent and with an unknown task.
    expect(new Set(checks.map(([method, path]) => `${method} ${path.replace(/[0-9a-f-]{36}/g, '{id}')}`)).size).toBe(29);
    for (const [method, path, model] of checks) {
      expect(await h.raw(method, path, method === 'GET' ? undefined : { name: name('x'), prompt: 'x', channel: 'email', sender: 'emulator@example.com', body: 'x', schedule: '' }), `${method} ${path}`).toMatchObject(none(model));
    }
    for (const path of ['/agents/browser-use/not-a-uuid/', '/agents/12345/', '/agents/not-a-uuid/timeline/']) {
      expect(await h.raw('GET', path), path).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    }
  });

  it('the agent-scoped create validates the body before it looks the agent up (CreateModelMixin.create, then perform_create)', async () => {
    expect(await h.raw('POST', `/agents/browser-use/${UNKNOWN}/tasks/`, { prompt: true })).toMatchObject({ status: 400, body: { prompt: ['Not a valid string.'] } });
  });

  it('a deleted persistent agent\'s browser-use agent: gone from the agent routes, a bare 404 on its task routes (_validate_agent_access)', async () => {
    const agent = await newAgent();
    await h.api('DELETE', `/agents/${agent.id}/`);
    expect(await h.raw('GET', `/agents/browser-use/${agent.browser_use_agent_id}/`)).toMatchObject({ status: 404, body: { detail: 'No BrowserUseAgent matches the given query.' } });
    expect(await h.raw('GET', `/agents/browser-use/${agent.browser_use_agent_id}/tasks/`)).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    expect(await h.raw('GET', `/agents/${agent.id}/`)).toMatchObject({ status: 404, body: { detail: 'No PersistentAgent matches the given query.' } });
  });
});

describe('persistent agents (api/serializers.py PersistentAgentSerializer.create/update; api/services/persistent_agents.py provision)', () => {
  it('create: proactive_opt_in true whatever is sent, last_interaction_at set, schedule_snapshot null', async () => {
    const agent = await newAgent({ proactive_opt_in: false, schedule: '@daily' });
    expect(agent).toMatchObject({ proactive_opt_in: true, schedule: '@daily', schedule_snapshot: null });
    expect(Date.parse(agent.last_interaction_at as string)).toBeLessThan(Date.parse(agent.created_at as string));
    // An update writes both, as any model field.
    expect(await h.api('PATCH', `/agents/${agent.id}/`, { proactive_opt_in: false, schedule: '@hourly' })).toMatchObject({ proactive_opt_in: false, schedule: '@hourly', schedule_snapshot: null });
  });

  it('a PATCH to life_state expired keeps the schedule; activate sets last_interaction_at (api/services/agent_lifecycle.py activate_agent)', async () => {
    const agent = await newAgent({ schedule: '@daily' });
    expect(await h.api('PATCH', `/agents/${agent.id}/`, { life_state: 'expired' })).toMatchObject({ life_state: 'expired', schedule: '@daily', schedule_snapshot: null });
    h.advance(5000);
    expect(await h.api('POST', `/agents/${agent.id}/activate/`)).toEqual({ status: 'activated', updated: true });
    const after = await h.api<Agent>('GET', `/agents/${agent.id}/`);
    expect(after).toMatchObject({ life_state: 'active', schedule: '@daily' });
    expect(Date.parse(after.last_interaction_at as string)).toBe(Date.parse(agent.created_at as string) + 5000);
  });

  it('an unknown template_code and any enabled_personal_server_ids are 400s', async () => {
    expect((await h.raw('POST', '/agents/', { name: name('tpl'), template_code: 'no-such' })).body).toEqual({ non_field_errors: ["Unknown template code 'no-such'."] });
    const id = 'ABCDEF00-0000-4000-8000-000000000001';
    expect((await h.raw('POST', '/agents/', { name: name('mcp'), enabled_personal_server_ids: [id] })).body).toEqual({
      enabled_personal_server_ids: [`Invalid personal MCP server ids: ${id.toLowerCase()}`],
    });
    const agent = await newAgent({ template_code: '', enabled_personal_server_ids: [] });
    expect((await h.raw('PATCH', `/agents/${agent.id}/`, { enabled_personal_server_ids: [id] })).body).toEqual({
      enabled_personal_server_ids: [`Invalid personal MCP server ids: ${id.toLowerCase()}`],
    });
  });
});

describe('legacy agent names (api/models.py BrowserUseAgent.save full_clean; api/views.py BrowserUseAgentViewSet.perform_create)', () => {
  it('a duplicate on create is 400 under __all__; a rename onto a taken name is the service\'s 500', async () => {
    const taken = await h.api<Agent>('POST', '/agents/browser-use/', { name: name('taken') });
    expect(await h.raw('POST', '/agents/browser-use/', { name: taken.name })).toMatchObject({ status: 400, body: { __all__: ['Browser use agent with this User and Name already exists.'] } });
    const other = await h.api<Agent>('POST', '/agents/browser-use/', { name: name('other') });
    for (const method of ['PUT', 'PATCH']) {
      const answer = await h.raw(method, `/agents/browser-use/${other.id}/`, { name: taken.name });
      expect(answer.status, method).toBe(500);
    }
    expect((await h.api<Agent>('GET', `/agents/browser-use/${other.id}/`)).name).toBe(other.name);
  });
});

describe('timeline (console/agent_chat/timeline.py)', () => {
  it('pausing and resuming write no event; a plan event has the kanban shape; a steps cluster has no timestamp', async () => {
    const agent = await newAgent({ charter: 'Watch prices. Report weekly.' });
    await h.api('POST', `/agents/${agent.id}/deactivate/`);
    await h.api('POST', `/agents/${agent.id}/activate/`);
    await send(agent, { channel: 'email', sender: 'emulator@example.com' });
    h.advance(TASK_DURATION_MS);
    const { events } = await h.api<{ events: Record<string, unknown>[] }>('GET', `/agents/${agent.id}/timeline/`);
    expect(events.map((event) => event.kind)).toEqual(['thinking', 'plan', 'message', 'steps', 'message']);
    const plan = events[1] as Record<string, unknown>;
    expect(Object.keys(plan)).toEqual(['kind', 'cursor', 'timestamp', 'agentName', 'displayText', 'primaryAction', 'changes', 'snapshot']);
    // broadcast_plan_changes (console/agent_chat/signals.py) names the agent by its first word.
    expect(plan).toMatchObject({ agentName: 'agent', primaryAction: 'created', displayText: 'agent added 2 steps' });
    expect(String(plan.cursor)).toMatch(/^\d+:plan:/);
    expect(plan.changes).toEqual([
      { stepId: expect.any(String), title: 'Watch prices.', action: 'created', fromStatus: null, toStatus: 'todo' },
      { stepId: expect.any(String), title: 'Report weekly.', action: 'created', fromStatus: null, toStatus: 'todo' },
    ]);
    expect(plan.snapshot).toEqual({ todoCount: 2, doingCount: 0, doneCount: 0, todoTitles: ['Watch prices.', 'Report weekly.'], doingTitles: [], doneTitles: [], files: [], messages: [] });
    const steps = events[3] as Record<string, unknown>;
    expect(Object.keys(steps)).toEqual(['kind', 'cursor', 'entryCount', 'collapsible', 'collapseThreshold', 'earliestTimestamp', 'latestTimestamp', 'entries']);
    expect((steps.entries as Record<string, unknown>[])[0]?.meta).toEqual({ label: 'Browser Use Task' });
  });
});

describe('secrets nested deeper than json.dumps goes (api/serializers.py BrowserUseAgentTaskSerializer.validate_secrets)', () => {
  // The serializer's json.dumps raises RecursionError, and its `except Exception` makes that a 400.
  const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}"x"${close.repeat(depth)}`;
  const create = (secrets: string) => h.raw('POST', '/tasks/browser-use/', undefined, { rawBody: `{"prompt":"x","secrets":${secrets}}`, headers: { 'content-type': 'application/json' } });

  it('answers 400 with the service\'s words, never a 500, and creates nothing', async () => {
    const before = h.emulator.state.tasks.size;
    for (const [secrets, kind] of [
      [`{"https://a.example":${nested(10_000, '{"k":', '}')}}`, 'object'],
      [`{"https://a.example":{"k":${nested(10_000, '[', ']')}}}`, 'array'],
      [nested(10_000, '{"https://a.example":', '}'), 'object'],
    ] as const) {
      const answer = await create(secrets);
      expect(answer, kind).toMatchObject({ status: 400, body: { secrets: [`Invalid secrets format: maximum recursion depth exceeded while encoding a JSON ${kind}`] } });
    }
    expect(h.emulator.state.tasks.size).toBe(before);
  });

  it('below that depth, the checks that follow answer as they do for any other value', async () => {
    const answer = await create(`{"https://a.example":${nested(5_000, '{"k":', '}')}}`);
    expect(answer).toMatchObject({ status: 400, body: { secrets: ["All secret keys and values must be strings in domain 'https://a.example'"] } });
  });
});

describe('smaller rules', () => {
  it('the inbound agent webhook: 400 without ?t=, 404 for an unknown webhook (api/webhooks.py inbound_agent_webhook)', async () => {
    const path = `/webhooks/inbound/agents/${UNKNOWN}/`;
    const missing = await h.raw('POST', path, { x: 1 }, { apiKey: null });
    expect(missing.status).toBe(400);
    expect((await h.raw('POST', `${path}?t=secret`, { x: 1 }, { apiKey: null })).status).toBe(404);
  });

  it('a JSON null body is {"non_field_errors": ["No data provided"]} (Serializer.validate_empty_values)', async () => {
    expect(await h.raw('POST', '/agents/browser-use/', undefined, { rawBody: 'null' })).toMatchObject({ status: 400, body: { non_field_errors: ['No data provided'] } });
    expect(await h.raw('POST', '/tasks/browser-use/', undefined, { rawBody: 'null' })).toMatchObject({ status: 400, body: { non_field_errors: ['No data provided'] } });
  });
});

describe('every field as its DRF 3.16 / Django field class (rest_framework/fields.py, django/core/validators.py)', () => {
  const task = (fields: Record<string, unknown>) => h.raw('POST', '/tasks/browser-use/', { prompt: 'x', ...fields });
  const agent = (fields: Record<string, unknown>) => h.raw('POST', '/agents/', { name: name('fields'), ...fields });

  it('CharField: Python\'s strip, null and surrogate characters refused, every problem at once', async () => {
    expect((await task({ prompt: '\x1f padded \x85' })).body).toMatchObject({ prompt: 'padded' });
    expect((await task({ prompt: '\ufeffkept' })).body).toMatchObject({ prompt: '\ufeffkept' });
    expect((await task({ prompt: 'a\x00b' })).body).toEqual({ prompt: ['Null characters are not allowed.'] });
    expect((await task({ prompt: 'lone \ud800 surrogate' })).body).toEqual({ prompt: ['Surrogate characters are not allowed: U+D800.'] });
    expect((await h.raw('POST', '/agents/browser-use/', { name: `${'x'.repeat(256)}\x00` })).body).toEqual({
      name: ['Ensure this field has no more than 255 characters.', 'Null characters are not allowed.'],
    });
  });

  it('BooleanField: only the listed spellings, as written (no trimming, no case folding)', async () => {
    for (const value of ['True', 'YES', 'on', 1, 1.0, 't']) expect((await task({ requires_vision: value })).body, String(value)).toMatchObject({ requires_vision: true });
    for (const value of ['tRuE', ' true', 'Yes ', 2, 'enabled']) expect((await task({ requires_vision: value })).body, String(value)).toEqual({ requires_vision: ['Must be a valid boolean.'] });
  });

  it('IntegerField: Python\'s int() after a trailing ".0" goes (underscores, signs), and at most 1000 characters', async () => {
    expect((await task({ wait: '2_000' })).body).toEqual({ wait: ['Ensure this value is less than or equal to 1350.'] });
    // 0 is no limit (Celery's AsyncResult.wait): the answer comes when the task ends.
    const before = h.emulator.state.tasks.size;
    const zero = task({ wait: ' 0_0.0 ' });
    await vi.waitFor(() => expect(h.emulator.state.tasks.size).toBe(before + 1));
    h.advance(TASK_DURATION_MS);
    expect(await zero).toMatchObject({ status: 201, body: { status: 'completed' } });
    expect((await agent({ daily_credit_limit: ' +4_0.00 ' })).body).toMatchObject({ daily_credit_limit: 40 });
    expect((await agent({ daily_credit_limit: true })).body).toEqual({ daily_credit_limit: ['A valid integer is required.'] });
    expect((await task({ wait: '1'.repeat(1001) })).body).toEqual({ wait: ['String value too large.'] });
  });

  it('DecimalField: Python\'s Decimal (underscores, no NaN or Infinity), at most 1000 characters', async () => {
    expect((await task({ credits_cost: '1_000.5' })).body).toMatchObject({ credits_cost: '1000.500' });
    for (const value of ['NaN', 'Infinity', '-inf', 'True']) expect((await task({ credits_cost: value })).body, value).toEqual({ credits_cost: ['A valid number is required.'] });
    expect((await task({ credits_cost: '1'.repeat(1001) })).body).toEqual({ credits_cost: ['String value too large.'] });
  });

  it('URLField: Django\'s URLValidator (a domain with a TLD, localhost or an IP; no spaces; http(s)/ftp(s)), then the serializer\'s http/https', async () => {
    for (const url of ['http://localhost:8080/hook', 'https://hooks.example.com/x?y=1#z', 'http://127.0.0.1/', 'http://[::1]:9000/', 'https://user:pw@xn--bcher-kva.example/']) {
      expect((await task({ webhook: url })).status, url).toBe(201);
    }
    for (const url of ['http://intranet/hook', 'http:/hooks.example.com', 'http://hooks.example.com/a b', 'http://my_host.example.com/', 'http://-bad.example.com/', 'mailto:a@b.example', `https://example.com/${'a'.repeat(2048)}`]) {
      expect((await task({ webhook: url })).body, url).toEqual({ webhook: ['Enter a valid URL.'] });
    }
    expect((await task({ webhook: 'FTP://files.example.com/x' })).body).toEqual({ webhook: ['webhook must use http or https.'] });
  });

  it('ChoiceField: null is "may not be null"; another value is named as Python prints it', async () => {
    expect((await agent({ life_state: null })).body).toEqual({ life_state: ['This field may not be null.'] });
    expect((await agent({ whitelist_policy: true })).body).toEqual({ whitelist_policy: ['"True" is not a valid choice.'] });
    expect((await agent({ contact_approval_mode: ['a', 1] })).body).toEqual({ contact_approval_mode: ['"[\'a\', 1]" is not a valid choice.'] });
    expect((await agent({ preferred_llm_tier: false })).body).toEqual({ preferred_llm_tier: ['Object with key=False does not exist.'] });
  });

  it('a blank schedule_snapshot stays blank; list items read as UUIDField reads them', async () => {
    const created = await newAgent();
    expect(await h.api('PATCH', `/agents/${created.id}/`, { schedule_snapshot: '' })).toMatchObject({ schedule_snapshot: '' });
    const braced = '{ABCDEF00-0000-4000-8000-000000000001}';
    expect((await h.raw('PATCH', `/agents/${created.id}/`, { enabled_personal_server_ids: [braced, 'nope'] })).body).toEqual({ enabled_personal_server_ids: { '1': ['Must be a valid UUID.'] } });
  });
});
