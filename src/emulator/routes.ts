import { randomUUID } from 'node:crypto';
import type { Lifecycle } from './lifecycle.js';
import { HttpError, UUID_PATTERN, fieldError, notFound } from './http.js';
import { paginate } from './pagination.js';
import { buildPersistentRoutes } from './persistent-routes.js';
import { agentDetail, agentListItem, now, taskDetail, taskListItem, USER_EMAIL, type State, type TaskRecord } from './state.js';
import { checkAgentName, checkCreditsCost, checkOutputSchema, checkPrompt, checkSecrets, checkWait, checkWebhook } from './validation.js';

export interface Request {
  method: string;
  url: URL;
  params: string[];
  body: () => Record<string, unknown>;
}

export type Answer = { status: number; body?: unknown };
type Handler = (request: Request) => Answer | Promise<Answer>;

export interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
  /** Routes that take no API key (the inbound agent webhook). */
  public?: boolean;
}

const ID = `(${UUID_PATTERN})`;

/** Every route of the service below the base path, as method tables. */
export function buildRoutes(state: State, lifecycle: Lifecycle): Route[] {
  const agentById = (id: string) => {
    const agent = state.agents.get(id.toLowerCase());
    if (!agent) throw notFound();
    return agent;
  };

  // Tasks of one scope: a browser-use agent's (agent-scoped routes) or the user's (standalone).
  const scopeOf = (request: Request): string | undefined => (request.params.length > 0 && request.url.pathname.includes('/agents/browser-use/') ? agentById(request.params[0] as string).id : undefined);
  const taskIn = (request: Request, id: string): TaskRecord => {
    const task = state.tasks.get(id.toLowerCase());
    const agentId = scopeOf(request);
    if (!task || (agentId !== undefined && task.agent_id !== agentId)) throw notFound();
    return task;
  };
  const taskId = (request: Request) => request.params[request.params.length - 1] as string;

  const createTask = async (request: Request): Promise<Answer> => {
    const agentId = scopeOf(request) ?? state.userAgentId;
    const body = request.body();
    const prompt = body.prompt === undefined ? null : checkPrompt(body.prompt);
    if (prompt?.includes('[no-credits]')) throw new HttpError(402, { message: 'User does not have enough task credits to run this task.' });
    if (prompt?.includes('[server-error]')) throw new HttpError(500, { detail: 'Internal server error.', error_id: randomUUID() });
    const task: TaskRecord = {
      id: randomUUID(),
      agent_id: agentId,
      prompt,
      output_schema: body.output_schema === undefined ? null : checkOutputSchema(body.output_schema),
      status: 'pending',
      created_at: now(),
      updated_at: now(),
      error_message: null,
      credits_cost: body.credits_cost === undefined ? null : checkCreditsCost(body.credits_cost),
      webhook: body.webhook === undefined ? null : checkWebhook(body.webhook),
      webhook_last_called_at: null,
      webhook_last_status_code: null,
      webhook_last_error: null,
      result: undefined,
      seq: state.nextSeq(),
    };
    if (body.secrets !== undefined) checkSecrets(body.secrets); // write-only: checked, never stored
    const wait = body.wait === undefined ? 0 : checkWait(body.wait);
    state.tasks.set(task.id, task);
    lifecycle.start(task);
    if (wait <= 0) return { status: 201, body: taskDetail(task) };
    await lifecycle.waitFor(task.id, wait * 1000);
    return { status: 201, body: syncAnswer(task) };
  };

  const updateTask = (request: Request): Answer => {
    const task = taskIn(request, taskId(request));
    const body = request.body();
    const changes: Partial<TaskRecord> = {};
    if (body.prompt !== undefined) changes.prompt = checkPrompt(body.prompt);
    if (body.output_schema !== undefined) changes.output_schema = checkOutputSchema(body.output_schema);
    if (body.webhook !== undefined) changes.webhook = checkWebhook(body.webhook);
    if (body.credits_cost !== undefined) changes.credits_cost = checkCreditsCost(body.credits_cost);
    if (body.secrets !== undefined) checkSecrets(body.secrets);
    if (body.wait !== undefined) checkWait(body.wait);
    if (task.status !== 'pending') {
      for (const field of ['prompt', 'output_schema'] as const) {
        if (field in changes && JSON.stringify(changes[field]) !== JSON.stringify(task[field])) {
          throw fieldError(field, `Cannot change ${field} once the task is ${task.status}.`);
        }
      }
    }
    Object.assign(task, changes, { updated_at: now() });
    return { status: 200, body: taskDetail(task) };
  };

  const taskRoutes = (base: string): Route[] => [
    {
      pattern: new RegExp(`^${base}$`),
      methods: {
        GET: (request) => {
          const agentId = scopeOf(request) ?? state.userAgentId;
          const tasks = state.newestFirst([...state.tasks.values()].filter((task) => task.agent_id === agentId));
          const page = paginate(tasks, request.url);
          return { status: 200, body: { ...page, results: page.results.map(taskListItem) } };
        },
        POST: createTask,
      },
    },
    {
      pattern: new RegExp(`^${base}${ID}/$`),
      methods: {
        GET: (request) => ({ status: 200, body: taskDetail(taskIn(request, taskId(request))) }),
        PUT: updateTask,
        PATCH: updateTask,
        DELETE: (request) => {
          state.tasks.delete(taskIn(request, taskId(request)).id);
          return { status: 204 };
        },
      },
    },
    {
      pattern: new RegExp(`^${base}${ID}/cancel/$`),
      methods: {
        POST: (request) => {
          const task = taskIn(request, taskId(request));
          if (!lifecycle.cancel(task)) throw new HttpError(409, { detail: `Task is already ${task.status} and cannot be cancelled.` });
          return { status: 200, body: { status: 'cancelled', message: 'Task has been cancelled.' } };
        },
      },
    },
    {
      pattern: new RegExp(`^${base}${ID}/result/$`),
      methods: { GET: (request) => ({ status: 200, body: resultBody(taskIn(request, taskId(request))) }) },
    },
  ];

  return [
    { pattern: /^\/ping\/$/, methods: { GET: () => ({ status: 200, body: { pong: true, user: USER_EMAIL } }) } },
    {
      pattern: /^\/agents\/browser-use\/$/,
      methods: {
        GET: (request) => {
          const page = paginate(state.newestFirst(state.agents.values()), request.url);
          return { status: 200, body: { ...page, results: page.results.map(agentListItem) } };
        },
        POST: (request) => {
          const name = checkAgentName(request.body().name, true) as string;
          uniqueName(state, name);
          const agent = { id: randomUUID(), name, created_at: now(), updated_at: now(), seq: state.nextSeq() };
          state.agents.set(agent.id, agent);
          return { status: 201, body: agentDetail(agent) };
        },
      },
    },
    {
      pattern: new RegExp(`^/agents/browser-use/${ID}/$`),
      methods: {
        GET: (request) => ({ status: 200, body: agentDetail(agentById(request.params[0] as string)) }),
        PUT: (request) => renameAgent(request, true),
        PATCH: (request) => renameAgent(request, false),
        DELETE: (request) => {
          const agent = agentById(request.params[0] as string);
          state.agents.delete(agent.id);
          for (const persistent of state.persistentAgents.values()) if (persistent.browser_use_agent_id === agent.id) state.persistentAgents.delete(persistent.id);
          for (const task of state.tasks.values()) if (task.agent_id === agent.id) state.tasks.delete(task.id);
          return { status: 204 };
        },
      },
    },
    ...taskRoutes(`/agents/browser-use/${ID}/tasks/`),
    ...taskRoutes('/tasks/browser-use/'),
    ...buildPersistentRoutes(state, lifecycle),
    {
      pattern: new RegExp(`^/webhooks/inbound/agents/${ID}/$`),
      public: true,
      methods: {
        POST: () => ({
          status: 202,
          body: { accepted: true, webhookId: randomUUID(), webhookName: 'emulated inbound webhook', messageId: randomUUID(), queued: true, receivedAt: now() },
        }),
      },
    },
  ];

  function renameAgent(request: Request, required: boolean): Answer {
    const agent = agentById(request.params[0] as string);
    const name = checkAgentName(request.body().name, required);
    if (name !== undefined && name !== agent.name) {
      uniqueName(state, name);
      agent.name = name;
    }
    agent.updated_at = now();
    return { status: 200, body: agentDetail(agent) };
  }
}

function uniqueName(state: State, name: string): void {
  for (const agent of state.agents.values()) {
    if (agent.name === name) throw fieldError('name', 'You already have an agent with this name.');
  }
}

/** The synchronous-wait answer: the task with its outcome, or a wait_error when time ran out. */
function syncAnswer(task: TaskRecord): Record<string, unknown> {
  const answer: Record<string, unknown> = { ...taskDetail(task) };
  if (task.status === 'completed') answer.result = task.result;
  else if (task.status === 'failed') answer.result = null;
  else if (task.status !== 'cancelled') answer.wait_error = 'The operation timed out.';
  return answer;
}

function resultBody(task: TaskRecord): Record<string, unknown> {
  const base = { id: task.id, agent_id: task.agent_id, status: task.status };
  switch (task.status) {
    case 'completed':
      return task.result === undefined ? { ...base, result: null, message: 'No result was stored.' } : { ...base, result: task.result };
    case 'failed':
      return { ...base, result: null, error_message: task.error_message };
    case 'cancelled':
      return base;
    default:
      return { ...base, message: 'Task is not yet completed.' };
  }
}
