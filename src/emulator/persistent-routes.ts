import { TASK_STATUSES } from '../contract/enums.js';
import { PAGE_LIMITS } from '../contract/limits.js';
import { neverFires } from '../schedule/grammar.js';
import { describeSchedule, nextFireTimes, parseSchedule, type Schedule } from '../schedule/index.js';
import { drfTimestamp } from './timestamps.js';
import { HttpError, fieldError, noMatch, serverError } from './http.js';
import { paginate } from './pagination.js';
import {
  addressOwner,
  agentAddress,
  inactivePayload,
  ownerEndpointId,
  persistentDetail,
  persistentListItem,
  senderAllowed,
  settleDescription,
  webAgentAddress,
  type PersistentAgentRecord,
} from './persistent-state.js';
import { checkAgentBody, checkMessageBody, checkPreviewSchedule, checkScheduleCrash, MESSAGE_FORM, PERSISTENT_FORM, PREVIEW_FORM, type AgentChanges, type EndpointOwner } from './persistent-validation.js';
import { ROUTER_ID, routerId, type Answer, type Request, type Route, type Services } from './route-types.js';
import { taskListItem, type State, type TaskRecord, type TaskStatus } from './state.js';
import { encodeCursor, eventBody, messageData, parseLimit, parseTimelineQuery, seedEvents, stepsData, timelineWindow, type EventKind, type MessageFields, type TimelineEvent } from './timeline.js';
import { pythonSplit, pythonStrip } from './validation.js';

const STATUS_LABELS: Record<TaskStatus, string> = { pending: 'Pending', in_progress: 'In Progress', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };
const PREVIEW_CHARS = 160;
// PERSISTENT_AGENT_DEFAULT_CHECKIN_DELAY_SECONDS (config/settings.py): a day.
const CHECKIN_DELAY_MS = 24 * 60 * 60 * 1000;

/**
 * The persistent-agent routes (/agents/ and /agents/{id}/...: DRF router routes, so a malformed id
 * is a JSON 404). A message to an agent appends its inbound message event and starts a web task (a
 * legacy task under the agent's browser-use agent, run by the shared Lifecycle); when that task ends
 * the timeline gets a `steps` event and, unless it was cancelled, an outbound reply.
 */
export function buildPersistentRoutes({ state, lifecycle }: Services): Route[] {
  lifecycle.onEnd((task) => answerMessage(state, task));

  // Schedules fire on the emulator's clock: each run adds a thinking event and starts a web task
  // with the charter as its prompt (the prompt markers apply), then waits for the next fire time.
  const armSchedule = (agent: PersistentAgentRecord): void => {
    const key = `schedule:${agent.id}`;
    lifecycle.clearTimers(key);
    const next = state.persistentAgents.has(agent.id) ? nextRunAt(state, agent) : null;
    if (next === null) return;
    lifecycle.later(key, Math.max(0, Date.parse(next) - state.clock.now()), () => {
      const current = state.persistentAgents.get(agent.id);
      if (!current || !current.is_active || current.life_state !== 'active' || current.schedule === null) return;
      append(state, current, 'thinking', () => ({ reasoning: `Scheduled run (${current.schedule ?? ''}): working on my charter.`, completionId: state.newId() }));
      lifecycle.start(state.newTask({ agent_id: current.browser_use_agent_id, prompt: current.charter || 'Scheduled run' }));
      armSchedule(current);
    });
  };
  for (const agent of state.persistentAgents.values()) armSchedule(agent);

  const ctx: Ctx = { state, lifecycle, armSchedule };
  const agentById = (request: Request) => findAgent(state, request);

  const ID = ROUTER_ID;
  return [
    {
      pattern: /^\/agents\/$/,
      methods: {
        GET: (request) => ({ status: 200, body: paginate(state.persistentList, request.url, persistentListItem) }),
        POST: (request) => createAgent(ctx, request),
      },
    },
    {
      pattern: new RegExp(`^/agents/${ID}/$`),
      methods: {
        GET: (request) => ({ status: 200, body: persistentDetail(agentById(request)) }),
        PUT: (request) => updateAgent(ctx, request),
        PATCH: (request) => updateAgent(ctx, request),
        DELETE: (request) => {
          // Soft delete: gone from the API; its browser-use agent and tasks stay.
          const agent = agentById(request);
          state.deletePersistentAgent(agent);
          armSchedule(agent);
          return { status: 204 };
        },
      },
    },
    { pattern: new RegExp(`^/agents/${ID}/activate/$`), methods: { POST: (request) => setActive(ctx, request, true) } },
    { pattern: new RegExp(`^/agents/${ID}/deactivate/$`), methods: { POST: (request) => setActive(ctx, request, false) } },
    { pattern: new RegExp(`^/agents/${ID}/messages/$`), methods: { POST: (request) => sendMessage(ctx, request) } },
    { pattern: new RegExp(`^/agents/${ID}/processing-status/$`), methods: { GET: (request) => ({ status: 200, body: processing(state, agentById(request)) }) } },
    {
      pattern: new RegExp(`^/agents/${ID}/timeline/$`),
      methods: {
        GET: (request) => {
          const agent = agentById(request);
          const query = parseTimelineQuery(request.url.searchParams);
          return { status: 200, body: { ...timelineWindow(agent.events, query, state.clock.now()), ...processing(state, agent) } };
        },
      },
    },
    { pattern: new RegExp(`^/agents/${ID}/web-tasks/$`), methods: { GET: (request) => webTasks(state, request) } },
    { pattern: new RegExp(`^/agents/${ID}/schedule/preview/$`), methods: { POST: (request) => preview(state, request) } },
  ];
}

/** What the persistent-agent handlers work with. */
interface Ctx {
  state: State;
  lifecycle: Services['lifecycle'];
  /** (Re)schedules an agent's next scheduled run, or clears it. */
  armSchedule(agent: PersistentAgentRecord): void;
}

/** The agent a router route names (a malformed id: bare 404; an unknown one: the model's), its description brought up to date. */
function findAgent(state: State, request: Request): PersistentAgentRecord {
  const agent = state.persistentAgents.get(routerId(request));
  if (!agent) throw noMatch('PersistentAgent');
  settleDescription(agent);
  return agent;
}

function createAgent(ctx: Ctx, request: Request): Answer {
  const { state, armSchedule } = ctx;
  const changes = checkAgentBody(request.body(PERSISTENT_FORM), (id) => endpointOwner(state, id));
  const name = changes.name ?? generatedName(state);
  // The service creates the browser-use agent first, under the same whole name: a name any
  // browser-use agent of the user has (a deleted persistent agent's included) is refused there.
  if (legacyNameTaken(state, name)) throw fieldError('name', 'Browser use agent with this User and Name already exists.');
  if (persistentNameTaken(state, name)) throw fieldError('name', PERSISTENT_NAME_TAKEN);
  checkScheduleCrash(changes.schedule);
  // provision() checks the plan's agent limit first (api/services/persistent_agents.py); the serializer words it.
  if (state.plan.agentLimit !== undefined && state.persistentAgents.size >= state.plan.agentLimit) throw new HttpError(400, { non_field_errors: ['Agent limit reached for this user.'] });
  // provision() checks the template after the agents are saved, in one transaction: nothing stays.
  // The emulator has no templates, nor personal MCP servers (mcp_servers.update_agent_personal_servers).
  if (changes.template_code) throw new HttpError(400, { non_field_errors: [`Unknown template code '${changes.template_code}'.`] });
  checkPersonalServers(changes.enabled_personal_server_ids);
  const legacy = state.newAgent(name);
  const stamp = legacy.created_at;
  const agent: PersistentAgentRecord = {
    id: state.newId(),
    name,
    charter: '',
    short_description: '',
    descriptionStale: false,
    schedule: null,
    schedule_snapshot: null,
    is_active: true,
    life_state: 'active',
    whitelist_policy: 'manual',
    contact_approval_mode: 'require_approval',
    preferred_llm_tier: 'standard',
    daily_credit_limit: null,
    // The model's default (timezone.now) stamps it when the object is built, before the save's
    // auto_now_add stamps created_at: a moment earlier.
    last_interaction_at: new Date(Date.parse(stamp) - 1).toISOString(),
    created_at: stamp,
    updated_at: stamp,
    browser_use_agent_id: legacy.id,
    preferred_contact_endpoint_id: null,
    // The model's default; create passes no proactive_opt_in to provision(), whatever was sent.
    proactive_opt_in: true,
    proactive_last_trigger_at: null,
    template_code: null,
    personal_mcp_server_ids: [],
    seq: state.nextSeq(),
    events: [],
  };
  // Create writes the fields provision() and the serializer's post-create updates take, not these.
  const { proactive_opt_in: _optIn, schedule_snapshot: _snapshot, ...written } = changes;
  apply(agent, written);
  // provision() then books the first check-in (create_default_onboarding_schedule), for an active agent only.
  agent.checkin_at = agent.is_active ? new Date(Math.floor(Date.parse(stamp) / 1000) * 1000 + CHECKIN_DELAY_MS).toISOString() : null;
  state.addPersistentAgent(agent);
  seed(state, agent);
  armSchedule(agent);
  return { status: 201, body: persistentDetail(agent) };
}

function updateAgent(ctx: Ctx, request: Request): Answer {
  const { state, armSchedule } = ctx;
  const agent = findAgent(state, request);
  const changes = checkAgentBody(request.body(PERSISTENT_FORM), (id) => endpointOwner(state, id, agent));
  // full_clean runs the model's clean() (the schedule) before its constraints.
  checkScheduleCrash(changes.schedule);
  // Renaming checks only the persistent agents (the model's constraint, a non-field error).
  if (changes.name !== undefined && persistentNameTaken(state, changes.name, agent.id)) throw new HttpError(400, { __all__: [PERSISTENT_NAME_TAKEN] });
  const charter = agent.charter;
  apply(agent, changes);
  // The serializer saves with update_fields = the fields it set, and Django's auto_now stamps
  // updated_at only on a save without them: only a body that sets nothing (template_code and the
  // personal servers are not fields it sets) moves it (PersistentAgentSerializer.update).
  const { template_code: _template, enabled_personal_server_ids: _servers, ...saved } = changes;
  if (Object.keys(saved).length === 0) agent.updated_at = state.now();
  if (agent.charter !== charter) seed(state, agent);
  armSchedule(agent);
  // Saved before the servers are applied, outside a transaction: the other changes stay.
  checkPersonalServers(changes.enabled_personal_server_ids);
  return { status: 200, body: persistentDetail(agent) };
}

/** activate_agent (api/services/agent_lifecycle.py) and the deactivate view: no timeline event. */
function setActive(ctx: Ctx, request: Request, active: boolean): Answer {
  const { state, armSchedule } = ctx;
  const agent = findAgent(state, request);
  let updated = agent.is_active !== active;
  if (active && agent.life_state !== 'active') {
    updated = true;
    agent.life_state = 'active';
    // `if locked.schedule_snapshot and not locked.schedule`: a blank schedule is restored too.
    if (!agent.schedule && agent.schedule_snapshot) agent.schedule = agent.schedule_snapshot;
  }
  agent.is_active = active;
  // Both save with update_fields, without updated_at (auto_now): it stays; activate_agent stamps last_interaction_at.
  if (updated && active) agent.last_interaction_at = state.now();
  armSchedule(agent);
  return { status: 200, body: { status: active ? 'activated' : 'deactivated', updated } };
}

function sendMessage(ctx: Ctx, request: Request): Answer {
  const { state, lifecycle, armSchedule } = ctx;
  const agent = findAgent(state, request);
  // A paused agent answers 409 before the body is read (a malformed body gets the 409 too); the
  // service links its web console's page of the agent (on the emulator's origin here).
  if (!agent.is_active) throw new HttpError(409, inactivePayload(agent, request.url.origin));
  const input = checkMessageBody(request.body(MESSAGE_FORM));
  // The recipient is resolved (400) before the sender is checked (403), as create_message does.
  const recipient = input.recipient ?? agentAddress(agent, input.channel);
  if (recipient === undefined) throw fieldError('recipient', `Agent has no ${input.channel} endpoint.`);
  if (!senderAllowed(agent, input.channel, input.sender)) throw new HttpError(403, { detail: 'Sender is not allowed to message this agent.' });
  const message: MessageFields = { id: state.newId(), isOutbound: false, channel: input.channel, sender: input.sender, recipient, subject: input.subject, body: input.body };
  // ingest_inbound_message stores the message for whoever owns the recipient's address
  // (get_agent_id_from_address): this agent, another agent, or nobody.
  const owner = addressOwner(state, input.channel, recipient);
  if (owner === undefined) return { status: 201, body: { event: ownerlessEvent(state, message) } };
  const event = appendMessage(state, owner, message);
  owner.last_interaction_at = event.timestamp;
  // ingest_inbound_message wakes an expired (but active) agent, restoring its schedule.
  if (owner.life_state === 'expired' && owner.is_active) {
    owner.life_state = 'active';
    if (owner.schedule_snapshot) owner.schedule = owner.schedule_snapshot;
    armSchedule(owner);
  }
  // An owner that is paused (another agent's address) keeps the message blocked: no processing.
  if (owner.is_active) processMessage(state, lifecycle, owner, message);
  return { status: 201, body: { event: eventBody(event, state.clock.now()) } };
}

/**
 * A message to an address nobody owns: the endpoint is made with no owner and the message saved with
 * owner_agent=None (message_service.ingest_inbound_message), so nothing processes it, no agent's
 * timeline shows it (console/agent_chat/timeline.py selects owner_agent=agent), and its event says
 * selfAgentName null. The emulator keeps it only in the answer.
 */
function ownerlessEvent(state: State, message: MessageFields): Record<string, unknown> {
  const seq = state.nextSeq();
  const timestamp = state.now();
  const cursor = encodeCursor({ seq, kind: 'message', timestamp });
  const data = messageData(message, '', cursor, timestamp);
  const event: TimelineEvent = { seq, kind: 'message', timestamp, data: { ...data, message: { ...(data.message as Record<string, unknown>), selfAgentName: null } } };
  return eventBody(event, state.clock.now());
}

/** Has the agent work on an inbound message: a web task whose end brings its reply (answerMessage). */
export function processMessage(state: State, lifecycle: Services['lifecycle'], agent: PersistentAgentRecord, message: MessageFields): void {
  const task = state.newTask({ agent_id: agent.browser_use_agent_id, prompt: message.body });
  state.messageTasks.set(task.id, { agentId: agent.id, message });
  lifecycle.start(task);
}

function webTasks(state: State, request: Request): Answer {
  const agent = findAgent(state, request);
  const params = request.url.searchParams;
  const status = params.get('status') || undefined;
  if (status !== undefined && !(TASK_STATUSES as readonly string[]).includes(status)) throw new HttpError(400, { status: ['Invalid status filter.'] });
  const limit = parseLimit(params.get('limit') || String(PAGE_LIMITS.webTasks.default), PAGE_LIMITS.webTasks.max);
  const results: ReturnType<typeof taskListItem>[] = [];
  for (const task of state.tasksOf(agent.browser_use_agent_id).newest()) {
    if (results.length >= limit) break;
    if (status === undefined || task.status === status) results.push(taskListItem(task));
  }
  return { status: 200, body: { results, limit } };
}

function preview(state: State, request: Request): Answer {
  findAgent(state, request);
  const { expression, schedule } = checkPreviewSchedule(request.body(PREVIEW_FORM).schedule);
  if (expression === null || schedule === undefined) return { status: 200, body: { valid: true, disabled: true, description: null } };
  return { status: 200, body: { valid: true, disabled: false, description: describeSchedule(schedule) } };
}

function append(state: State, agent: PersistentAgentRecord, kind: EventKind, data: (seq: number, cursor: string, timestamp: string) => Record<string, unknown>): TimelineEvent {
  const seq = state.nextSeq();
  const timestamp = state.now();
  const cursor = encodeCursor({ seq, kind, timestamp });
  const event: TimelineEvent = { seq, kind, timestamp, data: data(seq, cursor, timestamp) };
  agent.events.push(event);
  state.timelineEventAdded(agent.id);
  return event;
}

/** Adds a message event to the timeline: the API's messages, the agent's replies, the inbound webhook's payloads. */
export function appendMessage(state: State, agent: PersistentAgentRecord, message: MessageFields): TimelineEvent {
  return append(state, agent, 'message', (_seq, cursor, timestamp) => messageData(message, agent.name, cursor, timestamp));
}

/** The thought and plan a (new) charter starts. */
function seed(state: State, agent: PersistentAgentRecord): void {
  // broadcast_plan_changes names the agent by its first word (`if " " in agent_name: agent_name.split()[0]`).
  const planName = agent.name.includes(' ') ? (pythonSplit(agent.name)[0] ?? agent.name) : agent.name;
  for (const { kind, data } of seedEvents(agent.charter, planName)) append(state, agent, kind, (seq) => data(seq));
}

/** When a message's web task ends: a steps event and, unless it was cancelled, the agent's reply. */
function answerMessage(state: State, task: TaskRecord): void {
  const origin = state.messageTasks.get(task.id);
  if (!origin) return;
  state.messageTasks.delete(task.id);
  const agent = state.persistentAgents.get(origin.agentId);
  if (!agent) return;
  const result = typeof task.result === 'string' ? task.result : JSON.stringify(task.result ?? null);
  const summary =
    task.status === 'completed' ? `Web task completed: ${result}` : task.status === 'failed' ? `Web task failed: ${task.error_message ?? 'unknown error'}` : 'Web task was cancelled.';
  append(state, agent, 'steps', (seq, cursor, timestamp) =>
    stepsData([{ toolName: 'browser_use_task', status: task.status === 'failed' ? 'error' : 'complete', caption: summary, parameters: { task_id: task.id, prompt: task.prompt }, result: summary }], seq, cursor, timestamp),
  );
  if (task.status === 'cancelled') return;
  const inbound = origin.message;
  appendMessage(state, agent, {
    id: state.newId(),
    isOutbound: true,
    channel: inbound.channel,
    // The agent answers from its own endpoint on the channel (on the web: web://agent/<id>).
    sender: inbound.channel === 'web' ? webAgentAddress(agent) : (inbound.recipient ?? ''),
    recipient: inbound.sender,
    subject: inbound.subject === null ? null : `Re: ${inbound.subject}`,
    inReplyTo: inbound.id,
    body: task.status === 'completed' ? `Done. ${result}` : `I could not finish this: ${task.error_message ?? 'unknown error'}`,
  });
}

/**
 * Applies checked changes (uniqueness already checked) as the serializer's update sets each field:
 * the schedule and its snapshot only as written (no copy of one into the other), and expiring an
 * agent keeps its schedule.
 */
function apply(agent: PersistentAgentRecord, changes: AgentChanges): void {
  if (changes.name !== undefined) agent.name = changes.name;
  if (changes.charter !== undefined && changes.charter !== agent.charter) {
    agent.charter = changes.charter;
    agent.descriptionStale = true;
  }
  if (changes.schedule !== undefined) agent.schedule = changes.schedule;
  if (changes.life_state !== undefined) agent.life_state = changes.life_state;
  if (changes.schedule_snapshot !== undefined) agent.schedule_snapshot = changes.schedule_snapshot;
  if (changes.is_active !== undefined) agent.is_active = changes.is_active;
  if (changes.whitelist_policy !== undefined) agent.whitelist_policy = changes.whitelist_policy;
  if (changes.contact_approval_mode !== undefined) agent.contact_approval_mode = changes.contact_approval_mode;
  if (changes.preferred_llm_tier !== undefined) agent.preferred_llm_tier = changes.preferred_llm_tier;
  if (changes.daily_credit_limit !== undefined) agent.daily_credit_limit = changes.daily_credit_limit;
  if (changes.proactive_opt_in !== undefined) agent.proactive_opt_in = changes.proactive_opt_in;
  const endpoint = changes.preferred_contact_endpoint;
  if (endpoint !== undefined) {
    agent.preferred_contact_endpoint_id = endpoint === 'email' || endpoint === 'sms' ? ownerEndpointId(agent.id, endpoint) : endpoint;
  }
}

/**
 * The emulator's contact endpoints are each agent's e-mail and SMS endpoints (ownerEndpointId). The
 * service's 'email' is the agent's own address endpoint (owner_agent: the agent); its 'sms' the
 * user's number (no owner agent).
 */
function endpointOwner(state: State, id: string, self?: PersistentAgentRecord): EndpointOwner {
  for (const agent of state.persistentAgents.values()) {
    if (ownerEndpointId(agent.id, 'sms') === id) return 'this agent';
    if (ownerEndpointId(agent.id, 'email') === id) return agent === self ? 'this agent' : 'another agent';
  }
  return undefined;
}

/** Any personal MCP server id is unknown to the emulator: 400 as update_agent_personal_servers' ValueError; none is fine. */
function checkPersonalServers(ids: string[] | undefined): void {
  if (ids === undefined || ids.length === 0) return;
  throw new HttpError(400, { enabled_personal_server_ids: [`Invalid personal MCP server ids: ${[...new Set(ids)].sort().join(', ')}`] });
}

const PERSISTENT_NAME_TAKEN = 'Constraint “unique_persistent_agent_user_name” is violated.';

function legacyNameTaken(state: State, name: string): boolean {
  for (const agent of state.agents.values()) if (agent.name === name) return true;
  return false;
}

function persistentNameTaken(state: State, name: string, except?: string): boolean {
  for (const agent of state.persistentAgents.values()) if (agent.name === name && agent.id !== except) return true;
  return false;
}

/** A name no browser-use agent has (the service draws random names until one is free). */
function generatedName(state: State): string {
  let n = state.persistentAgents.size + 1;
  while (legacyNameTaken(state, `Agent ${n}`)) n++;
  return `Agent ${n}`;
}

/** When the agent's schedule next runs (the emulator's runs; intervals from a fixed start). */
function nextRunAt(state: State, agent: PersistentAgentRecord): string | null {
  if (!agent.is_active || agent.life_state !== 'active' || agent.schedule === null) return null;
  try {
    const schedule = parseSchedule(agent.schedule);
    let from = state.clock.now();
    if (schedule.kind === 'interval') {
      // An interval runs from a fixed start, so the next run is a stable instant, not "now + interval".
      const key = `${agent.id} ${agent.schedule}`;
      const start = state.intervalStarts.get(key) ?? from;
      state.intervalStarts.set(key, start);
      const step = schedule.seconds * 1000;
      from = start + Math.floor((from - start) / step) * step;
    }
    const [next] = nextFireTimes(schedule, new Date(from), 1);
    return next ? next.toISOString() : null;
  } catch {
    return null;
  }
}

/**
 * `nextScheduledAt` as console/agent_chat/timeline.py computes it (compute_agent_schedule_next_run):
 * for an active agent the earliest of its schedule's next run, read as Celery's
 * `remaining_estimate(now)` does (an interval is now + the interval, every time it is asked), and its
 * pending first check-in; a crontab no date matches makes Celery raise RuntimeError, which nothing
 * catches (a 500).
 */
function nextScheduledAt(state: State, agent: PersistentAgentRecord): string | null {
  if (!agent.is_active || agent.life_state !== 'active') return null;
  const now = state.clock.now();
  const candidates: number[] = [];
  const checkin = agent.checkin_at ? Date.parse(agent.checkin_at) : Number.NaN;
  if (checkin > now) candidates.push(checkin);
  const schedule = agent.schedule === null ? null : readSchedule(agent.schedule);
  if (schedule?.kind === 'interval') candidates.push(now + schedule.seconds * 1000);
  if (schedule?.kind === 'cron') {
    if (neverFires(schedule.sets)) throw serverError(state.newId());
    const [next] = nextFireTimes(schedule, new Date(now), 1);
    if (next) candidates.push(next.getTime());
  }
  if (candidates.length === 0) return null;
  // _format_timestamp: isoformat() with Z for +00:00 (microseconds only when not zero).
  return drfTimestamp(Math.min(...candidates));
}

/** ScheduleParser.parse, or null where the service's `except ValueError` gives up on it. */
function readSchedule(expression: string): Schedule | null {
  try {
    return parseSchedule(expression);
  } catch {
    return null;
  }
}

/** `processing_active` and `processing_snapshot` as the service computes them (running web tasks, oldest first). */
export function processing(state: State, agent: PersistentAgentRecord) {
  const webTasks = state
    .tasksOf(agent.browser_use_agent_id)
    .oldest()
    .filter((task) => task.status === 'pending' || task.status === 'in_progress')
    .map((task) => {
      const prompt = pythonStrip(task.prompt ?? '');
      const chars = [...prompt];
      return {
        id: task.id,
        status: task.status,
        statusLabel: STATUS_LABELS[task.status],
        prompt,
        // prompt if len(prompt) <= 160 else f"{prompt[:157].rstrip()}…" (_serialize_processing_web_task)
        promptPreview: chars.length <= PREVIEW_CHARS ? prompt : `${pythonStrip(chars.slice(0, PREVIEW_CHARS - 3).join(''))}…`,
        startedAt: task.created_at,
        updatedAt: task.updated_at,
        elapsedSeconds: Math.max(0, (state.clock.now() - Date.parse(task.created_at)) / 1000),
      };
    });
  const active = webTasks.length > 0;
  return { processing_active: active, processing_snapshot: { active, webTasks, nextScheduledAt: nextScheduledAt(state, agent) } };
}
