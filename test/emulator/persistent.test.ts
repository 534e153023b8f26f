import { describe, expect, it } from 'vitest';
import { TASK_DURATION_MS, useEmulator } from './harness.js';

// The emulator's persistent-agent routes, over real HTTP (docs/service-behaviour.md, "Persistent agents"),
// on a ManualClock: web tasks start and end when a test advances the clock.

type Agent = Record<string, unknown> & { id: string; name: string; browser_use_agent_id: string };
type Event = Record<string, unknown> & { kind: string; cursor: string; timestamp: string };
interface Timeline {
  events: Event[];
  oldest_cursor: string | null;
  newest_cursor: string | null;
  has_more_older: boolean;
  has_more_newer: boolean;
  processing_active: boolean;
  processing_snapshot: { active: boolean; webTasks: Record<string, unknown>[]; nextScheduledAt: string | null };
}

const LIST_FIELDS = [
  'browser_use_agent_id',
  'charter',
  'contact_approval_mode',
  'created_at',
  'id',
  'is_active',
  'last_interaction_at',
  'life_state',
  'name',
  'organization_id',
  'planning_completed_at',
  'planning_plan',
  'planning_state',
  'preferred_contact_endpoint_id',
  'proactive_last_trigger_at',
  'proactive_opt_in',
  'schedule',
  'updated_at',
  'user_id',
  'whitelist_policy',
];
const DETAIL_FIELDS = [...LIST_FIELDS, 'available_mcp_servers', 'daily_credit_limit', 'personal_mcp_server_ids', 'preferred_llm_tier', 'schedule_snapshot', 'short_description'].sort();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const h = useEmulator();
const { raw, api } = h;
let counter = 0;
const uniqueName = (prefix = 'agent') => `${prefix} ${++counter} ${Date.now()}`;
const createAgent = (body: Record<string, unknown> = {}) => api<Agent>('POST', '/agents/', { name: uniqueName(), ...body });
const timeline = (id: string, query = '') => api<Timeline>('GET', `/agents/${id}/timeline/${query}`);
const message = (id: string, body: Record<string, unknown>) => raw('POST', `/agents/${id}/messages/`, { channel: 'email', sender: 'emulator@example.com', body: 'hello', ...body });

describe('persistent agents: CRUD', () => {
  it('creates (201) with the detail fields, lists items with the list fields newest first, in the paginated envelope', async () => {
    const created = await raw('POST', '/agents/', { name: uniqueName('crud'), charter: 'Watch flight prices to Lisbon. Tell me when they drop.', unknown_field: 1 });
    expect(created.status).toBe(201);
    const agent = created.body as Agent;
    expect(Object.keys(agent).sort()).toEqual(DETAIL_FIELDS);
    expect(agent).toMatchObject({
      user_id: '42',
      organization_id: null,
      is_active: true,
      life_state: 'active',
      whitelist_policy: 'manual',
      schedule: null,
      schedule_snapshot: null,
      short_description: '',
      available_mcp_servers: [],
      personal_mcp_server_ids: [],
      proactive_opt_in: true,
      preferred_contact_endpoint_id: null,
      planning_state: 'skipped',
      planning_plan: '',
      planning_completed_at: null,
      contact_approval_mode: 'require_approval',
      preferred_llm_tier: 'standard',
      daily_credit_limit: null,
    });
    expect(agent.id).toMatch(UUID);
    expect(agent.browser_use_agent_id).toMatch(UUID);
    // The model's default stamps last_interaction_at when the object is built, before created_at.
    expect(Date.parse(agent.last_interaction_at as string)).toBeLessThan(Date.parse(agent.created_at as string));

    // short_description is filled in later: on the next read.
    const read = await api<Agent>('GET', `/agents/${agent.id}/`);
    expect(read.short_description).toBe('Watch flight prices to Lisbon.');

    const second = await createAgent();
    const list = await api<{ count: number; next: string | null; previous: string | null; results: Record<string, unknown>[] }>('GET', '/agents/?page_size=100');
    expect(Object.keys(list).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(list.count).toBeGreaterThanOrEqual(2);
    const ids = list.results.map((item) => item.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(agent.id));
    const item = list.results.find((entry) => entry.id === agent.id);
    expect(Object.keys(item ?? {}).sort()).toEqual(LIST_FIELDS);

    const paged = await api<{ next: string | null; results: unknown[] }>('GET', '/agents/?page_size=1');
    expect(paged.results).toHaveLength(1);
    expect(paged.next).toMatch(/[?&]page=2/);
    expect((await raw('GET', '/agents/?page=999')).body).toEqual({ detail: 'Invalid page.' });
  });

  it('generates a name when omitted, and PATCH / PUT update (200) while DELETE (204) removes the agent from the API', async () => {
    const agent = await api<Agent>('POST', '/agents/', {});
    expect(agent.name).toMatch(/^Agent \d+$/);
    const patched = await raw('PATCH', `/agents/${agent.id}/`, {
      whitelist_policy: 'manual',
      proactive_opt_in: false,
      enabled_personal_server_ids: [],
      template_code: 'tpl',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ whitelist_policy: 'manual', proactive_opt_in: false, personal_mcp_server_ids: [] });
    expect(patched.body).not.toHaveProperty('template_code');

    const name = uniqueName('renamed');
    const put = await raw('PUT', `/agents/${agent.id}/`, { name, charter: 'New charter', is_active: false });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name, charter: 'New charter', is_active: false, whitelist_policy: 'manual' });

    const deleted = await raw('DELETE', `/agents/${agent.id}/`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(deleted.contentType).toBeNull();
    expect(await raw('GET', `/agents/${agent.id}/`)).toMatchObject({ status: 404, body: { detail: 'No PersistentAgent matches the given query.' } });
    expect((await api<{ results: { id: string }[] }>('GET', '/agents/?page_size=100')).results.map((item) => item.id)).not.toContain(agent.id);
  });

  it('stores preferred_contact_endpoint: email / sms (any case) as a stable endpoint id per agent and kind, a known endpoint id as given, null clears', async () => {
    const agent = await createAgent({ preferred_contact_endpoint: 'EMAIL' });
    const emailId = agent.preferred_contact_endpoint_id;
    expect(emailId).toMatch(UUID);
    const sms = await api<Agent>('PATCH', `/agents/${agent.id}/`, { preferred_contact_endpoint: 'sms' });
    expect(sms.preferred_contact_endpoint_id).toMatch(UUID);
    expect(sms.preferred_contact_endpoint_id).not.toBe(emailId);
    expect((await api<Agent>('PATCH', `/agents/${agent.id}/`, { preferred_contact_endpoint: 'email' })).preferred_contact_endpoint_id).toBe(emailId);
    const smsId = sms.preferred_contact_endpoint_id as string;
    expect((await api<Agent>('PATCH', `/agents/${agent.id}/`, { preferred_contact_endpoint: smsId.toUpperCase() })).preferred_contact_endpoint_id).toBe(smsId);
    expect((await api<Agent>('PATCH', `/agents/${agent.id}/`, { preferred_contact_endpoint: null })).preferred_contact_endpoint_id).toBeNull();
  });

  it('answers 404 JSON for an unknown or malformed agent id (router routes), HTML 404 for an unknown route, 405 for a wrong method', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/agents/${unknown}/`, `/agents/${unknown}/timeline/`, `/agents/${unknown}/processing-status/`, `/agents/${unknown}/web-tasks/`]) {
      expect(await raw('GET', path)).toMatchObject({ status: 404, body: { detail: 'No PersistentAgent matches the given query.' } });
    }
    expect((await raw('POST', `/agents/${unknown}/activate/`)).status).toBe(404);
    for (const path of ['/agents/not-a-uuid/', '/agents/not-a-uuid/timeline/', '/agents/browser-use/not-a-uuid/']) {
      expect(await raw('GET', path), path).toMatchObject({ status: 404, body: { detail: 'Not found.' }, contentType: 'application/json' });
    }
    const html = await raw('GET', '/agents/not-a-uuid/no-such-action/');
    expect(html.status).toBe(404);
    expect(html.contentType).toContain('text/html');
    const agent = await createAgent();
    expect(await raw('GET', `/agents/${agent.id}/activate/`)).toMatchObject({ status: 405, body: { detail: 'Method "GET" not allowed.' } });
    expect((await raw('DELETE', '/agents/')).status).toBe(405);
  });
});

describe('persistent agents: validation', () => {
  it('answers field errors for every bad field at once', async () => {
    const answer = await raw('POST', '/agents/', {
      name: 'x'.repeat(256),
      charter: null,
      schedule: 'x'.repeat(129),
      schedule_snapshot: 'y'.repeat(129),
      is_active: 'maybe',
      life_state: 'paused',
      whitelist_policy: 'everyone',
      preferred_contact_endpoint: 'pigeon',
      proactive_opt_in: [],
      template_code: false,
      enabled_personal_server_ids: ['3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', 'nope'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      name: ['Ensure this field has no more than 255 characters.'],
      charter: ['This field may not be null.'],
      schedule: ['Ensure this field has no more than 128 characters.'],
      schedule_snapshot: ['Ensure this field has no more than 128 characters.'],
      is_active: ['Must be a valid boolean.'],
      life_state: ['"paused" is not a valid choice.'],
      whitelist_policy: ['"everyone" is not a valid choice.'],
      preferred_contact_endpoint: ['preferred_contact_endpoint must be "email", "sms", or a valid endpoint id.'],
      proactive_opt_in: ['Must be a valid boolean.'],
      template_code: ['Not a valid string.'],
      enabled_personal_server_ids: { '1': ['Must be a valid UUID.'] },
    });
    expect((await raw('POST', '/agents/', { name: '   ' })).body).toEqual({ name: ['This field may not be blank.'] });
    expect((await raw('POST', '/agents/', { enabled_personal_server_ids: 'x' })).body).toEqual({ enabled_personal_server_ids: ['Expected a list of items but got type "str".'] });
  });

  it('accepts a name of 255 characters, DRF boolean strings, and blank (kept as "") or null schedules (disabled)', async () => {
    const agent = await api<Agent>('POST', '/agents/', { name: String(++counter).padStart(255, 'n'), is_active: 'false', schedule: '   ' });
    expect(agent).toMatchObject({ is_active: false, schedule: '', schedule_snapshot: null });
    expect([...agent.name]).toHaveLength(255);
    expect((await api<Agent>('PATCH', `/agents/${agent.id}/`, { schedule: null, proactive_opt_in: 1 })).proactive_opt_in).toBe(true);
  });

  it('rejects a duplicate name on create and on rename, but allows keeping the own name', async () => {
    const first = await createAgent();
    const duplicate = await raw('POST', '/agents/', { name: first.name });
    // The service creates the browser-use agent first: its (user, name) constraint answers.
    expect(duplicate).toMatchObject({ status: 400, body: { name: ['Browser use agent with this User and Name already exists.'] } });
    const second = await createAgent();
    // A rename checks the persistent agents' own constraint, a non-field error.
    expect((await raw('PATCH', `/agents/${second.id}/`, { name: first.name })).body).toEqual({ __all__: ['Constraint “unique_persistent_agent_user_name” is violated.'] });
    expect((await raw('PATCH', `/agents/${first.id}/`, { name: first.name })).status).toBe(200);
    // A deleted agent's browser-use agent stays (a soft delete), so its name stays taken.
    await raw('DELETE', `/agents/${first.id}/`);
    expect((await raw('POST', '/agents/', { name: first.name })).status).toBe(400);
  });
});

describe('persistent agents: the backing browser-use agent', () => {
  it('creates a listed browser-use agent under the whole name, hides it once the persistent agent is deleted, and deleting it removes the persistent agent', async () => {
    const long = `${'L'.repeat(240)} ${++counter}`;
    const first = await createAgent({ name: long });
    const second = await createAgent();
    // The service keeps the whole name (the model field takes 255), not a cut one.
    expect((await api<{ name: string }>('GET', `/agents/browser-use/${first.browser_use_agent_id}/`)).name).toBe(long);
    const legacyList = await api<{ results: { id: string }[] }>('GET', '/agents/browser-use/?page_size=100');
    expect(legacyList.results.map((item) => item.id)).toContain(first.browser_use_agent_id);
    // A browser-use agent may not take a persistent agent's name, nor the other way round.
    expect((await raw('POST', '/agents/browser-use/', { name: long })).status).toBe(400);
    const legacy = await api<{ id: string; name: string }>('POST', '/agents/browser-use/', { name: uniqueName('legacy') });
    expect((await raw('POST', '/agents/', { name: legacy.name })).body).toEqual({ name: ['Browser use agent with this User and Name already exists.'] });

    expect((await raw('DELETE', `/agents/browser-use/${first.browser_use_agent_id}/`)).status).toBe(204);
    expect((await raw('GET', `/agents/${first.id}/`)).status).toBe(404);

    // Deleting the persistent agent hides its browser-use agent from the agent routes (404, unlisted).
    const task = await api<{ id: string }>('POST', `/agents/browser-use/${second.browser_use_agent_id}/tasks/`, { prompt: 'before' });
    expect((await raw('DELETE', `/agents/${second.id}/`)).status).toBe(204);
    // The agent routes' queryset leaves it out; the task routes find it and refuse it (_validate_agent_access).
    expect(await raw('GET', `/agents/browser-use/${second.browser_use_agent_id}/`)).toMatchObject({ status: 404, body: { detail: 'No BrowserUseAgent matches the given query.' } });
    for (const path of ['tasks/', `tasks/${task.id}/`]) {
      expect(await raw('GET', `/agents/browser-use/${second.browser_use_agent_id}/${path}`), path).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    }
    expect((await api<{ results: { id: string }[] }>('GET', '/agents/browser-use/?page_size=100')).results.map((item) => item.id)).not.toContain(second.browser_use_agent_id);
    // Its tasks stay the user's: the standalone routes still show them.
    expect((await raw('GET', `/tasks/browser-use/${task.id}/`)).status).toBe(200);
  });
});

describe('persistent agents: activate and deactivate', () => {
  it('answer status and whether anything changed', async () => {
    const agent = await createAgent();
    expect(await raw('POST', `/agents/${agent.id}/activate/`)).toEqual(expect.objectContaining({ status: 200, body: { status: 'activated', updated: false } }));
    expect((await raw('POST', `/agents/${agent.id}/deactivate/`)).body).toEqual({ status: 'deactivated', updated: true });
    expect((await raw('POST', `/agents/${agent.id}/deactivate/`)).body).toEqual({ status: 'deactivated', updated: false });
    expect((await api<Agent>('GET', `/agents/${agent.id}/`)).is_active).toBe(false);
    expect((await raw('POST', `/agents/${agent.id}/activate/`)).body).toEqual({ status: 'activated', updated: true });
    expect((await api<Agent>('GET', `/agents/${agent.id}/`)).is_active).toBe(true);
    // The service records no timeline event for either (api/views.py, activate and deactivate).
    expect((await timeline(agent.id)).events.filter((event) => event.kind === 'user_action')).toEqual([]);
  });

  it('activating an expired agent sets life_state active, restores the schedule from the snapshot, and counts as a change', async () => {
    const agent = await createAgent();
    expect((await api<Agent>('PATCH', `/agents/${agent.id}/`, { life_state: 'expired', schedule: null, schedule_snapshot: '@daily' })).life_state).toBe('expired');
    expect((await raw('POST', `/agents/${agent.id}/activate/`)).body).toEqual({ status: 'activated', updated: true });
    const after = await api<Agent>('GET', `/agents/${agent.id}/`);
    expect(after.life_state).toBe('active');
    // The schedule was null while expired: activate restores it from the snapshot (activate_agent).
    expect(after.schedule).toBe('@daily');
    // A paused but not expired agent whose schedule was cleared by the user keeps it cleared.
    await api('PATCH', `/agents/${agent.id}/`, { schedule: null, schedule_snapshot: '@hourly' });
    await raw('POST', `/agents/${agent.id}/deactivate/`);
    await raw('POST', `/agents/${agent.id}/activate/`);
    expect((await api<Agent>('GET', `/agents/${agent.id}/`)).schedule).toBeNull();
  });
});

describe('persistent agents: messages', () => {
  it('answers 201 with the inbound message event, and the message starts a web task whose end adds steps and a reply', async () => {
    const agent = await createAgent();
    const sent = await message(agent.id, { body: 'Find the cheapest flight', subject: 'Flights', metadata: { source: 'test' } });
    expect(sent.status).toBe(201);
    const event = (sent.body as { event: Event & { message: Record<string, unknown> } }).event;
    expect(event).toMatchObject({ kind: 'message', cursor: expect.any(String), timestamp: expect.any(String) });
    // The service's message event: bodyText, isOutbound, senderAddress... (console/agent_chat/timeline.py).
    expect(event.message).toEqual({
      id: expect.stringMatching(UUID),
      inReplyToMessageId: null,
      cursor: event.cursor,
      bodyHtml: '<p>Find the cheapest flight</p>',
      bodyText: 'Find the cheapest flight',
      // The API stores no subject where _message_subject reads one (the message's raw_payload).
      subject: null,
      isOutbound: false,
      channel: 'email',
      attachments: [],
      timestamp: event.timestamp,
      relativeTimestamp: expect.any(String),
      isPeer: false,
      peerAgent: null,
      peerLinkId: null,
      selfAgentName: agent.name,
      senderUserId: null,
      senderName: 'emulator@example.com',
      senderAddress: 'emulator@example.com',
      recipientName: null,
      recipientAddress: expect.stringMatching(/@agents\./),
      replyTo: null,
      ccAddresses: [],
      bccAddresses: [],
      sourceKind: null,
      sourceLabel: null,
      channelLabel: null,
      webhookMeta: null,
      structuredPayload: null,
      viewerFeedback: null,
      deliveryStatus: 'queued',
      outboxReview: null,
    });
    expect((await api<Agent>('GET', `/agents/${agent.id}/`)).last_interaction_at).toBe(event.timestamp);

    const tasks = await api<{ results: { prompt: string; agent_id: string }[] }>('GET', `/agents/browser-use/${agent.browser_use_agent_id}/tasks/`);
    expect(tasks.results).toMatchObject([{ prompt: 'Find the cheapest flight', agent_id: agent.browser_use_agent_id }]);

    expect((await timeline(agent.id)).events).toHaveLength(1);
    h.advance(TASK_DURATION_MS);
    const done = await timeline(agent.id);
    expect(done.events.map((entry) => entry.kind)).toEqual(['message', 'steps', 'message']);
    expect(done.events[1]).toMatchObject({ entryCount: 1, entries: [{ toolName: 'browser_use_task', status: 'complete', caption: expect.stringContaining('Web task completed') }] });
    expect(done.events[2]).toMatchObject({
      message: { isOutbound: true, channel: 'email', senderAddress: expect.stringMatching(/@agents\./), bodyText: expect.stringMatching(/^Done\. /), subject: 'Re: Flights', recipientAddress: 'emulator@example.com', inReplyToMessageId: event.message.id },
    });
    expect(done.processing_active).toBe(false);
  });

  it('a [fail] message ends in a failed steps event and a reply saying so', async () => {
    const agent = await createAgent();
    expect((await message(agent.id, { body: '[fail] try it' })).status).toBe(201);
    h.advance(TASK_DURATION_MS);
    const done = await timeline(agent.id);
    expect(done.events[1]).toMatchObject({ kind: 'steps', entries: [{ status: 'error' }] });
    expect(done.events[2]).toMatchObject({ kind: 'message', message: { isOutbound: true, channel: 'email', bodyText: expect.stringContaining('could not finish') } });
  });

  it('validates the body: channel choice, required sender and body, metadata object', async () => {
    const agent = await createAgent();
    expect((await raw('POST', `/agents/${agent.id}/messages/`, {})).body).toEqual({
      channel: ['This field is required.'],
      sender: ['This field is required.'],
      body: ['This field is required.'],
    });
    expect((await message(agent.id, { channel: 'pigeon' })).body).toEqual({ channel: ['"pigeon" is not a valid choice.'] });
    expect((await message(agent.id, { body: '' })).body).toEqual({ body: ['This field may not be blank.'] });
    expect((await message(agent.id, { sender: true })).body).toEqual({ sender: ['Not a valid string.'] });
    expect((await message(agent.id, { metadata: [1] })).body).toEqual({ metadata: ['Expected a dictionary of items but got type "list".'] });
  });

  it('answers 409 agent_inactive to a paused agent, with the reactivation URL, before it reads the body', async () => {
    const agent = await createAgent({ is_active: false });
    const answer = await message(agent.id, { channel: 'pigeon', sender: null });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      code: 'agent_inactive',
      message: 'This agent is paused and can’t receive messages right now.',
      reactivation_url: `${h.emulator.baseUrl.replace(/\/api\/v1$/, '')}/app/agents/${agent.id}`,
    });
    expect((await timeline(agent.id)).events).toEqual([]);
  });

  it('answers 403 to a sender the agent may not hear from, after the recipient is resolved (test/conformance/service-rules.test.ts has the rest)', async () => {
    const agent = await createAgent({ whitelist_policy: 'manual' });
    const stranger = await message(agent.id, { sender: 'stranger@example.com' });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual({ detail: 'Sender is not allowed to message this agent.' });
    expect((await message(agent.id, { sender: 'Emulator@Example.com' })).status).toBe(201);
    for (const channel of ['sms', 'slack', 'discord', 'other', 'web']) {
      expect((await message(agent.id, { channel })).body).toEqual({ recipient: [`Agent has no ${channel} endpoint.`] });
    }
  });
});

describe('persistent agents: timeline', () => {
  it('starts with a thinking and a plan event from the charter', async () => {
    const agent = await createAgent({ charter: 'Track prices. Report weekly.' });
    const initial = await timeline(agent.id);
    expect(initial.events.map((event) => event.kind)).toEqual(['thinking', 'plan']);
    expect(initial.events[0]).toMatchObject({ reasoning: expect.any(String), completionId: expect.stringMatching(UUID) });
    expect(initial.events[1]).toMatchObject({ primaryAction: 'created', snapshot: { todoTitles: ['Track prices.', 'Report weekly.'] } });
    expect((await timeline((await createAgent()).id)).events).toEqual([]);
  });

  it('pages back with direction=older through every event exactly once, and forward with direction=newer', async () => {
    const agent = await createAgent({ charter: 'One. Two.' });
    for (let i = 1; i <= 5; i++) expect((await message(agent.id, { body: `message ${i} [hang]` })).status).toBe(201);
    const all = await timeline(agent.id, '?limit=100');
    expect(all.events).toHaveLength(7);
    expect(all).toMatchObject({ has_more_older: false, has_more_newer: false });
    const timestamps = all.events.map((event) => event.timestamp);
    expect([...timestamps].sort()).toEqual(timestamps);
    expect(new Set(all.events.map((event) => event.cursor)).size).toBe(7);

    const initial = await timeline(agent.id, '?direction=initial&limit=2');
    expect(initial.events.map((event) => event.cursor)).toEqual(all.events.slice(-2).map((event) => event.cursor));
    expect(initial).toMatchObject({ has_more_older: true, has_more_newer: false, oldest_cursor: all.events[5]?.cursor, newest_cursor: all.events[6]?.cursor });

    const seen = [...initial.events];
    let page = initial;
    let windows = 1;
    while (page.has_more_older) {
      page = await timeline(agent.id, `?direction=older&limit=2&cursor=${encodeURIComponent(page.oldest_cursor ?? '')}`);
      expect(page.has_more_newer).toBe(true);
      seen.unshift(...page.events);
      windows++;
    }
    expect(windows).toBe(4);
    expect(seen.map((event) => event.cursor)).toEqual(all.events.map((event) => event.cursor));

    const first = all.events[0]?.cursor ?? '';
    const newer = await timeline(agent.id, `?direction=newer&limit=3&cursor=${encodeURIComponent(first)}`);
    expect(newer.events.map((event) => event.cursor)).toEqual(all.events.slice(1, 4).map((event) => event.cursor));
    expect(newer).toMatchObject({ has_more_older: true, has_more_newer: true });
    // Past the newest event: an empty window, and (as the service computes it) no cursors to page from.
    const last = await timeline(agent.id, `?direction=newer&cursor=${encodeURIComponent(all.newest_cursor ?? '')}`);
    expect(last).toMatchObject({ events: [], oldest_cursor: null, newest_cursor: null, has_more_newer: false, has_more_older: false });
    expect(all.processing_active).toBe(true);
  });

  it('clamps limit to 1..100, reads older without a cursor from the newest, ignores a cursor it did not write; 400 for a bad direction or a non-integer limit', async () => {
    const agent = await createAgent({ charter: 'One. Two.' });
    for (let i = 1; i <= 3; i++) await message(agent.id, { body: `m${i} [hang]` });
    const all = await timeline(agent.id, '?limit=500');
    expect(all.events).toHaveLength(5);
    expect((await timeline(agent.id, '?limit=0')).events).toHaveLength(1);
    expect((await timeline(agent.id, '?limit=-4')).events).toHaveLength(1);
    const older = await timeline(agent.id, '?direction=older&limit=2');
    expect(older.events.map((event) => event.cursor)).toEqual(all.events.slice(-2).map((event) => event.cursor));
    expect(older).toMatchObject({ has_more_older: true, has_more_newer: false });
    expect((await timeline(agent.id, '?direction=older&cursor=bogus&limit=2')).events.map((event) => event.cursor)).toEqual(older.events.map((event) => event.cursor));
    // Cursors have the service's form: <microseconds>:<kind>:<id>.
    expect(all.events[0]?.cursor).toMatch(/^\d+:[a-z]+:\d+$/);
    // The view's own checks and words: direction first, then limit read with Python's int() (empty is an error).
    expect(await raw('GET', `/agents/${agent.id}/timeline/?direction=sideways&limit=ten`)).toMatchObject({ status: 400, body: { direction: ['Invalid direction parameter.'] } });
    for (const limit of ['ten', '', '1.5']) expect((await raw('GET', `/agents/${agent.id}/timeline/?limit=${limit}`)).body, limit).toEqual({ limit: ['limit must be an integer'] });
    expect((await timeline(agent.id, '?limit=+2')).events).toHaveLength(2);
  });
});

describe('persistent agents: processing status and web tasks', () => {
  it('reports a running web task while a [hang] message is being worked on', async () => {
    const agent = await createAgent();
    const idle = await api<Timeline>('GET', `/agents/${agent.id}/processing-status/`);
    // Without a schedule the next wake-up is the first check-in, a day after creation.
    const checkin = new Date(Math.floor(Date.parse(agent.created_at as string) / 1000) * 1000 + 86_400_000).toISOString().replace('.000Z', 'Z');
    expect(idle).toEqual({ processing_active: false, processing_snapshot: { active: false, webTasks: [], nextScheduledAt: checkin } });

    await message(agent.id, { body: 'keep going [hang]' });
    expect((await api<Timeline>('GET', `/agents/${agent.id}/processing-status/`)).processing_snapshot.webTasks[0]?.status).toBe('pending');
    h.advance(TASK_DURATION_MS / 5);
    const running = await api<Timeline>('GET', `/agents/${agent.id}/processing-status/`);
    expect(running.processing_active).toBe(true);
    expect(running.processing_snapshot.active).toBe(true);
    expect(running.processing_snapshot.webTasks).toEqual([
      {
        id: expect.stringMatching(UUID),
        status: 'in_progress',
        statusLabel: 'In Progress',
        prompt: 'keep going [hang]',
        promptPreview: 'keep going [hang]',
        startedAt: expect.any(String),
        updatedAt: expect.any(String),
        elapsedSeconds: TASK_DURATION_MS / 5 / 1000,
      },
    ]);
    // Cancelling the web task ends it: a steps event, no reply.
    const taskId = running.processing_snapshot.webTasks[0]?.id as string;
    expect((await raw('POST', `/agents/browser-use/${agent.browser_use_agent_id}/tasks/${taskId}/cancel/`)).status).toBe(200);
    const after = await timeline(agent.id);
    expect(after.processing_active).toBe(false);
    expect(after.events.map((event) => event.kind)).toEqual(['message', 'steps']);
    expect(after.events[1]).toMatchObject({ entries: [{ status: 'complete' }] });
  });

  it('lists web tasks newest first, filtered by status and cut to limit (clamped to 1..200); 400 for a bad status', async () => {
    const agent = await createAgent();
    await message(agent.id, { body: 'first' });
    await message(agent.id, { body: 'second [hang]' });
    await message(agent.id, { body: 'third [hang]' });
    const all = await api<{ results: Record<string, unknown>[]; limit: number }>('GET', `/agents/${agent.id}/web-tasks/`);
    expect(all.limit).toBe(50);
    expect(all.results.map((task) => task.prompt)).toEqual(['third [hang]', 'second [hang]', 'first']);
    expect(Object.keys(all.results[0] ?? {}).sort()).toEqual(['agent_id', 'created_at', 'credits_cost', 'id', 'output_schema', 'prompt', 'requires_vision', 'status', 'updated_at', 'webhook']);

    h.advance(TASK_DURATION_MS);
    expect((await api<{ results: unknown[] }>('GET', `/agents/${agent.id}/web-tasks/?status=completed`)).results).toHaveLength(1);
    const limited = await api<{ results: { prompt: string }[]; limit: number }>('GET', `/agents/${agent.id}/web-tasks/?limit=1`);
    expect(limited).toMatchObject({ limit: 1, results: [{ prompt: 'third [hang]' }] });
    const running = await api<{ results: { prompt: string }[] }>('GET', `/agents/${agent.id}/web-tasks/?status=in_progress&limit=200`);
    expect(running.results.map((task) => task.prompt)).toEqual(['third [hang]', 'second [hang]']);

    expect((await raw('GET', `/agents/${agent.id}/web-tasks/?status=done&limit=x`)).body).toEqual({ status: ['Invalid status filter.'] });
    expect(await api('GET', `/agents/${agent.id}/web-tasks/?limit=201`)).toMatchObject({ limit: 200 });
    expect(await api('GET', `/agents/${agent.id}/web-tasks/?limit=0`)).toMatchObject({ limit: 1, results: [{ prompt: 'third [hang]' }] });
    expect((await raw('GET', `/agents/${agent.id}/web-tasks/?limit=many`)).body).toEqual({ limit: ['limit must be an integer'] });
    expect(await api('GET', `/agents/${agent.id}/web-tasks/?limit=&status=`)).toMatchObject({ limit: 50 });
  });
});

describe('persistent agents: schedule preview (no parser needed)', () => {
  it('answers disabled with no description for a blank schedule, and 400 for a missing, null, non-string or unparsable one', async () => {
    const agent = await createAgent();
    expect(await raw('POST', `/agents/${agent.id}/schedule/preview/`, { schedule: '  ' })).toMatchObject({ status: 200, body: { valid: true, disabled: true, description: null } });
    expect(await raw('POST', `/agents/${agent.id}/schedule/preview/`, {})).toMatchObject({ status: 400, body: { schedule: ['This field is required.'] } });
    expect(await raw('POST', `/agents/${agent.id}/schedule/preview/`, { name: agent.name })).toMatchObject({ status: 400, body: { schedule: ['This field is required.'] } });
    expect(await raw('POST', `/agents/${agent.id}/schedule/preview/`, { schedule: null })).toMatchObject({ status: 400, body: { schedule: ['This field may not be null.'] } });
    expect((await raw('POST', `/agents/${agent.id}/schedule/preview/`, { schedule: true })).body).toEqual({ schedule: ['Not a valid string.'] });
    // The preview's serializer has no length limit (the agent's field has 128): a long text is a parse error.
    expect((await raw('POST', `/agents/${agent.id}/schedule/preview/`, { schedule: '*'.repeat(129) })).body).toEqual({ schedule: [expect.any(String)] });
    expect((await raw('POST', `/agents/${agent.id}/schedule/preview/`, { schedule: '*'.repeat(129) })).body).not.toEqual({ schedule: ['Ensure this field has no more than 128 characters.'] });
    expect((await raw('POST', '/agents/00000000-0000-4000-8000-000000000000/schedule/preview/', {})).status).toBe(404);
  });
});
