import { HttpError, UUID_PATTERN, fieldError, noMatch, notFound, serverError } from './http.js';
import { pageJson, paginate } from './pagination.js';
import { inboundWebhookRoute } from './inbound-webhook.js';
import { remoteMcpRoute } from './remote-mcp/route.js';
import { buildPersistentRoutes } from './persistent-routes.js';
import { ROUTER_ID, routerId, type Answer, type Request, type Route, type Services } from './route-types.js';
import { agentDetail, agentListItem, taskDetail, USER_EMAIL, type AgentRecord, type State, type TaskRecord } from './state.js';
import { AGENT_FORM, checkAgentName, checkTaskBody, TASK_FORM } from './validation.js';

export type { Answer, Request, Route, Services } from './route-types.js';

/** The id segment of an explicit `<uuid:...>` path: anything else does not match (Django's HTML 404). */
const UUID_ID = `(${UUID_PATTERN})`;

const PENDING_ONLY = 'Task can be modified only while it is PENDING.';
const NO_CREDITS = 'User does not have enough task credits to create a new task.';

/** Every route of the service below the base path, as method tables (the first that matches answers). */
export function buildRoutes(services: Services, mcp: McpOptions = {}): Route[] {
  const { state } = services;
  const routes: Route[] = [
    { pattern: /^\/ping\/$/, methods: { GET: () => ({ status: 200, body: { pong: true, user: USER_EMAIL } }) } },
    ...legacyAgentRoutes(state),
    ...taskRoutes(services, `/agents/browser-use/${UUID_ID}/tasks/`),
    ...taskRoutes(services, '/tasks/browser-use/'),
    // After the browser-use agent routes: `/agents/{id}/` would take `/agents/browser-use/` too.
    ...buildPersistentRoutes(services),
    inboundWebhookRoute(state),
  ];
  // The remote MCP endpoint works through the other routes (its agent tools call them).
  routes.push(remoteMcpRoute({ state, lifecycle: services.lifecycle, routes }, mcp.hostAllowed));
  return routes;
}

/** What the remote MCP endpoint's Origin check needs: the emulator's own host check (its ALLOWED_HOSTS). */
export interface McpOptions {
  hostAllowed?: (host: string | undefined) => boolean;
}

/** /agents/browser-use/ and /agents/browser-use/{id}/ (a DRF router: a malformed id is a JSON 404). */
function legacyAgentRoutes(state: State): Route[] {
  return [
    {
      pattern: /^\/agents\/browser-use\/$/,
      methods: {
        GET: (request) => ({ status: 200, body: paginate(state.agentList, request.url, (agent) => agentListItem(agent, state.persistentOf(agent.id))) }),
        POST: (request) => {
          const name = checkAgentName(request.body(AGENT_FORM).name, true) as string;
          // full_clean's unique-constraint error, which perform_create turns into a 400 as it is.
          if (nameTaken(state, name)) throw new HttpError(400, { __all__: ['Browser use agent with this User and Name already exists.'] });
          return { status: 201, body: describe(state, state.newAgent(name)) };
        },
      },
    },
    {
      pattern: new RegExp(`^/agents/browser-use/${ROUTER_ID}/$`),
      methods: {
        GET: (request) => ({ status: 200, body: describe(state, routerAgent(state, request)) }),
        PUT: (request) => renameAgent(state, request, true),
        PATCH: (request) => renameAgent(state, request, false),
        DELETE: (request) => {
          state.deleteAgent(routerAgent(state, request));
          return { status: 204 };
        },
      },
    },
  ];
}

/**
 * A browser-use agent of the router routes. One behind a deleted persistent agent is gone from them
 * (their queryset leaves it out) but keeps its name and its tasks, which the standalone routes still show.
 */
function routerAgent(state: State, request: Request): AgentRecord {
  const agent = state.agents.get(routerId(request));
  if (!agent || state.hiddenAgents.has(agent.id)) throw noMatch('BrowserUseAgent');
  return agent;
}

const describe = (state: State, agent: AgentRecord) => agentDetail(agent, state.persistentOf(agent.id));

function renameAgent(state: State, request: Request, required: boolean): Answer {
  const agent = routerAgent(state, request);
  const name = checkAgentName(request.body(AGENT_FORM).name, required);
  if (name !== undefined && name !== agent.name) {
    // The model's save() runs full_clean, whose unique-constraint error perform_update does not
    // catch: the service answers 500 and keeps the old name (a client must not retry it).
    if (nameTaken(state, name)) throw serverError(state.newId());
    agent.name = name;
  }
  agent.updated_at = state.now();
  return { status: 200, body: describe(state, agent) };
}

/** The task routes below `base`: the agent-scoped ones (`<uuid:agentId>` paths) or the standalone ones. */
function taskRoutes(services: Services, base: string): Route[] {
  const { state, lifecycle, webhookDelivered } = services;
  const taskOf = (request: Request) => findTask(state, request);
  return [
    {
      pattern: new RegExp(`^${base}$`),
      methods: {
        GET: (request) => {
          const agentId = scopeOf(state, request);
          // The standalone list holds every task of the user, whichever agent runs it.
          const index = agentId === null ? state.taskList : state.tasksOf(agentId);
          return { status: 200, json: pageJson(paginate(index, request.url, (task) => state.taskListItemJson(task))) };
        },
        POST: (request) => createTask(services, request),
      },
    },
    {
      pattern: new RegExp(`^${base}${UUID_ID}/$`),
      methods: {
        GET: (request) => ({ status: 200, body: taskDetail(taskOf(request)) }),
        PUT: (request) => updateTask(state, request),
        PATCH: (request) => updateTask(state, request),
        DELETE: (request) => {
          // perform_destroy only marks the task deleted: the worker runs it on and sends its webhook.
          state.deleteTask(taskOf(request), true);
          return { status: 204 };
        },
      },
    },
    {
      pattern: new RegExp(`^${base}${UUID_ID}/cancel/$`),
      methods: {
        POST: async (request) => {
          const task = taskOf(request);
          if (!lifecycle.cancel(task)) throw new HttpError(409, { detail: `Task is already ${task.status} and cannot be cancelled.` });
          // cancel_browser_use_task calls trigger_task_webhook itself: the answer comes after the delivery.
          await webhookDelivered?.(task.id);
          return { status: 200, body: { status: 'cancelled', message: 'Task has been cancelled.' } };
        },
      },
    },
    { pattern: new RegExp(`^${base}${UUID_ID}/result/$`), methods: { GET: (request) => ({ status: 200, body: resultBody(taskOf(request)) }) } },
  ];
}

/**
 * The browser-use agent of an agent-scoped task route, or null on the standalone routes. As the
 * service's get_queryset: an unknown agent names the model; a hidden one is _validate_agent_access's bare 404.
 */
function scopeOf(state: State, request: Request): string | null {
  if (!request.path.startsWith('/agents/browser-use/')) return null;
  const agent = state.agents.get((request.params[0] as string).toLowerCase());
  if (!agent) throw noMatch('BrowserUseAgent');
  if (state.hiddenAgents.has(agent.id)) throw notFound();
  return agent.id;
}

function findTask(state: State, request: Request): TaskRecord {
  const agentId = scopeOf(state, request);
  const task = state.tasks.get((request.params[request.params.length - 1] as string).toLowerCase());
  if (!task || (agentId !== null && task.agent_id !== agentId)) throw noMatch('BrowserUseAgentTask');
  return task;
}

/** The task serializer's checks; `agent` must name an existing browser-use agent (any, hidden included). */
const taskBody = (state: State, request: Request) => checkTaskBody(request.body(TASK_FORM), (id) => state.agents.has(id));

async function createTask({ state, lifecycle }: Services, request: Request): Promise<Answer> {
  // create() checks the credits before it reads the body (api/views.py BrowserUseAgentTaskViewSet.create).
  if (state.plan.taskCredits !== undefined && state.creditsUsed >= state.plan.taskCredits) throw new HttpError(402, { message: NO_CREDITS });
  // The serializer validates the body first; perform_create then looks the route's agent up.
  const body = taskBody(state, request);
  if (body.agent && state.hiddenAgents.has(body.agent)) throw fieldError('agent', 'Specified agent has been deleted.');
  const scope = scopeOf(state, request);
  // The agent-scoped route runs the task under its agent; the standalone one under the body's `agent`, if any.
  const agentId = scope ?? body.agent ?? null;
  const prompt = body.prompt ?? null;
  if (prompt?.includes('[no-credits]')) throw new HttpError(402, { message: NO_CREDITS });
  if (prompt?.includes('[server-error]')) throw serverError(state.newId());
  const task = state.newTask({
    agent_id: agentId,
    prompt,
    output_schema: body.output_schema ?? null,
    webhook: body.webhook ?? null,
    requires_vision: body.requires_vision ?? false,
    // None (null, or blank text) is no charge of one's own: the model's save() charges the default.
    credits_cost: body.credits_cost ?? undefined,
  });
  lifecycle.start(task);
  if (state.plan.taskCredits !== undefined) state.creditsUsed++;
  // serializer.data is read (and cached) before the wait: the answer shows the record as created.
  const created = taskDetail(task);
  if (body.wait === undefined) return { status: 201, body: created };
  // Celery's AsyncResult.wait(timeout=0) has no limit (its loop tests `if timeout and ...`).
  await lifecycle.waitFor(task, body.wait === 0 ? Number.POSITIVE_INFINITY : body.wait * 1000);
  return { status: 201, body: syncAnswer(task, created) };
}

function updateTask(state: State, request: Request): Answer {
  const task = findTask(state, request);
  const { agent, wait: _wait, secrets: _secrets, ...changes } = taskBody(state, request);
  // The service refuses prompt, output_schema or requires_vision once the task left pending, even unchanged.
  if (task.status !== 'pending' && ('prompt' in changes || 'output_schema' in changes || 'requires_vision' in changes)) {
    throw new HttpError(400, { status: [PENDING_ONLY], detail: [PENDING_ONLY] });
  }
  // An `agent` in the body moves the task (the serializer saves it as any other field).
  if (agent !== undefined) state.moveTask(task, agent);
  state.changeTask(task, changes);
  return { status: 200, body: taskDetail(task) };
}

/** Whether any of the user's browser-use agents (hidden ones included) has the name: the model's unique (user, name). */
function nameTaken(state: State, name: string): boolean {
  for (const agent of state.agents.values()) if (agent.name === name) return true;
  return false;
}

/**
 * The synchronous-wait answer, as the service's create builds it (api/views.py, perform_create's
 * wait_result_data, then create): the outcome's fields first, then every other field of the record
 * as it was created (so updated_at, error_message and the webhook fields as at creation). Time ran
 * out: status in_progress (even for a task still pending) and wait_error. `agent_id` is there, null
 * for a standalone task.
 */
function syncAnswer(task: TaskRecord, created: Record<string, unknown>): Record<string, unknown> {
  const ids = { id: task.id, agent_id: task.agent_id };
  let outcome: Record<string, unknown>;
  if (task.status === 'completed') outcome = { ...ids, result: task.result, status: 'completed' };
  else if (task.status === 'failed') outcome = { ...ids, status: 'failed', error_message: task.error_message };
  else if (task.status === 'cancelled') outcome = { ...ids, status: task.status };
  else outcome = { status: 'in_progress', wait_error: 'The operation timed out.', ...ids };
  const answer = { ...outcome };
  for (const [key, value] of Object.entries(created)) if (!(key in answer)) answer[key] = value;
  return answer;
}

function resultBody(task: TaskRecord): Record<string, unknown> {
  const base = { id: task.id, agent_id: task.agent_id, status: task.status };
  switch (task.status) {
    case 'completed':
      return task.result === undefined ? { ...base, result: null, message: 'Result not found for completed task.' } : { ...base, result: task.result };
    case 'failed':
      return { ...base, result: null, error_message: task.error_message };
    case 'cancelled':
      return base;
    default:
      return { ...base, message: 'Task is not yet completed.' };
  }
}
