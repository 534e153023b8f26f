import { TASK_STATUSES } from '../contract/enums.js';
import { randomUUID } from 'node:crypto';
import { describeSchedule, nextFireTimes, parseSchedule } from '../schedule/index.js';
import { HttpError, UUID_PATTERN, fieldError, notFound } from './http.js';
import type { Lifecycle } from './lifecycle.js';
import { paginate } from './pagination.js';
import {
  agentAddress,
  ownerEndpointId,
  persistentDetail,
  persistentListItem,
  senderAllowed,
  settleDescription,
  type PersistentAgentRecord,
} from './persistent-state.js';
import { checkAgentBody, checkMessageBody, checkSchedule, type AgentChanges } from './persistent-validation.js';
import type { Answer, Request, Route } from './routes.js';
import { now, taskListItem, USER_EMAIL, type State, type TaskRecord, type TaskStatus } from './state.js';
import { eventBody, messageData, parseLimit, parseTimelineQuery, seedEvents, stepsData, timelineWindow, type EventKind, type MessageFields, type TimelineEvent } from './timeline.js';

const ID = `(${UUID_PATTERN})`;
const STATUS_LABELS: Record<TaskStatus, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' };

/**
 * The persistent-agent routes (/agents/ and /agents/{id}/...). A message to an agent appends its
 * inbound message event and starts a web task (a legacy task under the agent's browser-use agent, run
 * by the shared Lifecycle); when that task ends the timeline gets a `steps` event and, unless it was
 * cancelled, an outbound reply.
 */
export function buildPersistentRoutes(state: State, lifecycle: Lifecycle): Route[] {
  /** Web tasks started by a message: task id -> the agent and the inbound message. */
  const messageTasks = new Map<string, { agentId: string; message: MessageFields }>();

  const agentById = (request: Request): PersistentAgentRecord => {
    const agent = state.persistentAgents.get((request.params[0] as string).toLowerCase());
    if (!agent) throw notFound();
    settleDescription(agent);
    return agent;
  };

  const append = (agent: PersistentAgentRecord, kind: EventKind, data: Record<string, unknown>): TimelineEvent => {
    const event: TimelineEvent = { seq: state.nextSeq(), kind, timestamp: now(), data };
    agent.events.push(event);
    return event;
  };

  const uniqueName = (name: string, except?: string): void => {
    for (const agent of state.persistentAgents.values()) {
      if (agent.name === name && agent.id !== except) throw fieldError('name', 'You already have an agent with this name.');
    }
  };

  const generatedName = (): string => {
    const taken = new Set([...state.persistentAgents.values()].map((agent) => agent.name));
    let n = state.persistentAgents.size + 1;
    while (taken.has(`Agent ${n}`)) n++;
    return `Agent ${n}`;
  };

  /** The backing browser-use agent's name: the agent's, cut to 64 characters, with " (2)"... when taken. */
  const legacyName = (name: string): string => {
    const taken = new Set([...state.agents.values()].map((agent) => agent.name));
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const candidate = `${[...name].slice(0, 64 - suffix.length).join('').trimEnd()}${suffix}`;
      if (!taken.has(candidate)) return candidate;
    }
  };

  const webTasksOf = (agent: PersistentAgentRecord): TaskRecord[] => state.newestFirst([...state.tasks.values()].filter((task) => task.agent_id === agent.browser_use_agent_id));

  /** When each agent's interval schedule started counting (`agent id + schedule` -> ms since epoch). */
  const intervalStarts = new Map<string, number>();

  const nextScheduledAt = (agent: PersistentAgentRecord): string | null => {
    if (!agent.is_active || agent.life_state !== 'active' || agent.schedule === null) return null;
    try {
      const schedule = parseSchedule(agent.schedule);
      let from = Date.now();
      if (schedule.kind === 'interval') {
        // An interval runs from a fixed start, so the next run is a stable instant, not "now + interval".
        const key = `${agent.id} ${agent.schedule}`;
        const start = intervalStarts.get(key) ?? from;
        intervalStarts.set(key, start);
        const step = schedule.seconds * 1000;
        from = start + Math.floor((from - start) / step) * step;
      }
      const [next] = nextFireTimes(schedule, new Date(from), 1);
      return next ? next.toISOString() : null;
    } catch {
      return null;
    }
  };

  const processing = (agent: PersistentAgentRecord) => {
    const running = webTasksOf(agent)
      .filter((task) => task.status === 'pending' || task.status === 'in_progress')
      .reverse();
    const webTasks = running.map((task) => {
      const prompt = task.prompt ?? '';
      const chars = [...prompt];
      return {
        id: task.id,
        status: task.status,
        statusLabel: STATUS_LABELS[task.status],
        prompt,
        promptPreview: chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : prompt,
        startedAt: task.created_at,
        updatedAt: task.updated_at,
        elapsedSeconds: Math.max(0, Math.floor((Date.now() - Date.parse(task.created_at)) / 1000)),
      };
    });
    const active = webTasks.length > 0;
    return { processing_active: active, processing_snapshot: { active, webTasks, nextScheduledAt: nextScheduledAt(agent) } };
  };

  /** Applies checked changes (uniqueness already checked). Keeps schedule_snapshot = the last non-null schedule. */
  const apply = (agent: PersistentAgentRecord, changes: AgentChanges): void => {
    if (changes.name !== undefined) agent.name = changes.name;
    if (changes.charter !== undefined && changes.charter !== agent.charter) {
      agent.charter = changes.charter;
      agent.descriptionStale = true;
    }
    const expiring = changes.life_state === 'expired' && agent.life_state !== 'expired';
    if (changes.schedule !== undefined) {
      agent.schedule = changes.schedule;
      if (changes.schedule !== null) agent.schedule_snapshot = changes.schedule;
    }
    if (changes.life_state !== undefined) agent.life_state = changes.life_state;
    // Soft expiry clears the schedule; the snapshot keeps it for activate to restore.
    if (expiring && changes.schedule === undefined && agent.schedule !== null) {
      agent.schedule_snapshot = agent.schedule;
      agent.schedule = null;
    }
    if (changes.schedule_snapshot !== undefined) agent.schedule_snapshot = changes.schedule_snapshot;
    if (changes.is_active !== undefined) agent.is_active = changes.is_active;
    if (changes.whitelist_policy !== undefined) agent.whitelist_policy = changes.whitelist_policy;
    if (changes.proactive_opt_in !== undefined) agent.proactive_opt_in = changes.proactive_opt_in;
    if (changes.template_code !== undefined) agent.template_code = changes.template_code;
    if (changes.enabled_personal_server_ids !== undefined) agent.personal_mcp_server_ids = changes.enabled_personal_server_ids;
    const endpoint = changes.preferred_contact_endpoint;
    if (endpoint !== undefined) {
      agent.preferred_contact_endpoint_id = endpoint === 'email' || endpoint === 'sms' ? ownerEndpointId(agent.id, endpoint) : endpoint;
    }
  };

  const create = (request: Request): Answer => {
    const changes = checkAgentBody(request.body());
    const name = changes.name ?? generatedName();
    uniqueName(name);
    const stamp = now();
    const legacy = { id: randomUUID(), name: legacyName(name), created_at: stamp, updated_at: stamp, seq: state.nextSeq() };
    state.agents.set(legacy.id, legacy);
    const agent: PersistentAgentRecord = {
      id: randomUUID(),
      name,
      charter: '',
      short_description: '',
      descriptionStale: false,
      schedule: null,
      schedule_snapshot: null,
      is_active: true,
      life_state: 'active',
      whitelist_policy: 'default',
      last_interaction_at: null,
      created_at: stamp,
      updated_at: stamp,
      browser_use_agent_id: legacy.id,
      preferred_contact_endpoint_id: null,
      proactive_opt_in: false,
      proactive_last_trigger_at: null,
      template_code: null,
      personal_mcp_server_ids: [],
      seq: state.nextSeq(),
      events: [],
    };
    apply(agent, changes);
    state.persistentAgents.set(agent.id, agent);
    for (const { kind, data } of seedEvents(agent.charter)) append(agent, kind, data);
    return { status: 201, body: persistentDetail(agent) };
  };

  const update = (request: Request): Answer => {
    const agent = agentById(request);
    const changes = checkAgentBody(request.body());
    if (changes.name !== undefined && changes.name !== agent.name) uniqueName(changes.name, agent.id);
    const charter = agent.charter;
    apply(agent, changes);
    agent.updated_at = now();
    if (agent.charter !== charter) for (const { kind, data } of seedEvents(agent.charter)) append(agent, kind, data);
    return { status: 200, body: persistentDetail(agent) };
  };

  const setActive = (request: Request, active: boolean): Answer => {
    const agent = agentById(request);
    let updated = agent.is_active !== active;
    if (active) {
      if (agent.life_state === 'expired') {
        updated = true;
        if (agent.schedule === null && agent.schedule_snapshot !== null) agent.schedule = agent.schedule_snapshot;
      }
      agent.life_state = 'active';
    }
    agent.is_active = active;
    if (updated) {
      agent.updated_at = now();
      append(agent, 'user_action', { action: active ? 'activated' : 'deactivated', actor: USER_EMAIL });
    }
    return { status: 200, body: { status: active ? 'activated' : 'deactivated', updated } };
  };

  const sendMessage = (request: Request): Answer => {
    const agent = agentById(request);
    const input = checkMessageBody(request.body());
    if (!agent.is_active) {
      const path = request.url.pathname;
      const base = `${request.url.origin}${path.slice(0, path.lastIndexOf('/agents/'))}`;
      throw new HttpError(409, {
        code: 'agent_inactive',
        message: 'This agent is paused and cannot receive messages. Activate it first.',
        reactivation_url: `${base}/agents/${agent.id}/activate/`,
      });
    }
    if (!senderAllowed(agent, input.channel, input.sender)) {
      throw new HttpError(403, { detail: `Sender "${input.sender}" is not on this agent's allowlist (whitelist_policy is manual).` });
    }
    const recipient = input.recipient ?? agentAddress(agent, input.channel);
    if (recipient === undefined) throw new HttpError(400, [`This agent has no ${input.channel} endpoint; give a recipient.`]);
    const message: MessageFields = {
      id: randomUUID(),
      direction: 'inbound',
      channel: input.channel,
      sender: input.sender,
      recipient,
      subject: input.subject,
      body: input.body,
      ...(input.metadata ? { metadata: input.metadata } : {}),
    };
    const event = append(agent, 'message', messageData(message));
    agent.last_interaction_at = event.timestamp;
    const task: TaskRecord = {
      id: randomUUID(),
      agent_id: agent.browser_use_agent_id,
      prompt: input.body,
      output_schema: null,
      status: 'pending',
      created_at: event.timestamp,
      updated_at: event.timestamp,
      error_message: null,
      credits_cost: null,
      webhook: null,
      webhook_last_called_at: null,
      webhook_last_status_code: null,
      webhook_last_error: null,
      result: undefined,
      seq: state.nextSeq(),
    };
    state.tasks.set(task.id, task);
    messageTasks.set(task.id, { agentId: agent.id, message });
    lifecycle.start(task);
    return { status: 201, body: { event: eventBody(event) } };
  };

  lifecycle.onEnd((task) => {
    const origin = messageTasks.get(task.id);
    if (!origin) return;
    messageTasks.delete(task.id);
    const agent = state.persistentAgents.get(origin.agentId);
    if (!agent) return;
    const result = typeof task.result === 'string' ? task.result : JSON.stringify(task.result ?? null);
    const summary =
      task.status === 'completed' ? `Web task completed: ${result}` : task.status === 'failed' ? `Web task failed: ${task.error_message ?? 'unknown error'}` : 'Web task was cancelled.';
    append(agent, 'steps', stepsData([{ toolName: 'browser_use_task', status: task.status, summary, taskId: task.id }]));
    if (task.status === 'cancelled') return;
    const inbound = origin.message;
    append(
      agent,
      'message',
      messageData({
        id: randomUUID(),
        direction: 'outbound',
        channel: inbound.channel,
        sender: inbound.recipient ?? '',
        recipient: inbound.sender,
        subject: inbound.subject === null ? null : `Re: ${inbound.subject}`,
        body: task.status === 'completed' ? `Done. ${result}` : `I could not finish this: ${task.error_message ?? 'unknown error'}`,
      }),
    );
  });

  return [
    {
      pattern: /^\/agents\/$/,
      methods: {
        GET: (request) => {
          const page = paginate(state.newestFirst(state.persistentAgents.values()), request.url);
          return { status: 200, body: { ...page, results: page.results.map(persistentListItem) } };
        },
        POST: create,
      },
    },
    {
      pattern: new RegExp(`^/agents/${ID}/$`),
      methods: {
        GET: (request) => ({ status: 200, body: persistentDetail(agentById(request)) }),
        PUT: update,
        PATCH: update,
        DELETE: (request) => {
          // Soft delete: gone from the API; its browser-use agent and tasks stay.
          state.persistentAgents.delete(agentById(request).id);
          return { status: 204 };
        },
      },
    },
    { pattern: new RegExp(`^/agents/${ID}/activate/$`), methods: { POST: (request) => setActive(request, true) } },
    { pattern: new RegExp(`^/agents/${ID}/deactivate/$`), methods: { POST: (request) => setActive(request, false) } },
    { pattern: new RegExp(`^/agents/${ID}/messages/$`), methods: { POST: sendMessage } },
    { pattern: new RegExp(`^/agents/${ID}/processing-status/$`), methods: { GET: (request) => ({ status: 200, body: processing(agentById(request)) }) } },
    {
      pattern: new RegExp(`^/agents/${ID}/timeline/$`),
      methods: {
        GET: (request) => {
          const agent = agentById(request);
          const query = parseTimelineQuery(request.url.searchParams);
          return { status: 200, body: { ...timelineWindow(agent.events, query), ...processing(agent) } };
        },
      },
    },
    {
      pattern: new RegExp(`^/agents/${ID}/web-tasks/$`),
      methods: {
        GET: (request) => {
          const agent = agentById(request);
          const params = request.url.searchParams;
          const errors: Record<string, string[]> = {};
          const status = params.get('status') || undefined;
          if (status !== undefined && !(TASK_STATUSES as readonly string[]).includes(status)) errors.status = [`"${status}" is not a valid choice.`];
          const limit = parseLimit(params.get('limit'), 50, 200);
          if (typeof limit === 'string') errors.limit = [limit];
          if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
          const tasks = webTasksOf(agent).filter((task) => status === undefined || task.status === status);
          return { status: 200, body: { results: tasks.slice(0, limit as number).map(taskListItem), limit } };
        },
      },
    },
    {
      pattern: new RegExp(`^/agents/${ID}/schedule/preview/$`),
      methods: {
        POST: (request) => {
          agentById(request);
          const { expression, schedule } = checkSchedule(request.body().schedule);
          if (expression === null || schedule === undefined) return { status: 200, body: { valid: true, disabled: true, description: null } };
          return { status: 200, body: { valid: true, disabled: false, description: describeSchedule(schedule) } };
        },
      },
    },
  ];
}
