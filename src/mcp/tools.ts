// The tools of `agentctl mcp`, each a thin call of src/api with the checks of the commands it mirrors.
import { Readable } from 'node:stream';
import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import { legacyAgents } from '../api/legacy-agents.js';
import type { PageRequest } from '../api/pagination.js';
import type { Page } from '../api/schemas/common.js';
import { persistentAgents, type MessageBody } from '../api/persistent-agents.js';
import type { PersistentAgentBody } from '../api/schemas/persistent-agent.js';
import type { Task } from '../api/schemas/task.js';
import { tasks, type TaskScope } from '../api/tasks.js';
import { waitForTask } from '../api/wait.js';
import { LIFE_STATES, MESSAGE_CHANNELS, TASK_STATUSES, TIMELINE_DIRECTIONS, WHITELIST_POLICIES } from '../contract/enums.js';
import { PAGE_LIMITS } from '../contract/limits.js';
import { LIMITS, checkName, checkOutputSchema, checkWebhookUrl } from '../contract/validate.js';
import { describeEvent } from '../core/timeline-format.js';
import { checkPreferredContact, checkScheduleFlag } from '../commands/persistent/body.js';
import { localPreview, parsePreviewOptions } from '../commands/schedule-preview/preview.js';
import { readPage } from '../commands/common/list.js';
import { buildTaskBody } from '../commands/tasks/body.js';
import { withResumeHint } from '../commands/tasks/outcome.js';
import { InputError, checkField, defineTool, uuid, type Tool, type ToolCall } from './tool.js';

/** The page a list tool reads unless told otherwise: small enough for a model to read through. */
const DEFAULT_PAGE_SIZE = 20;

const agentScope = uuid('the browser-use agent whose tasks these are; leave out for standalone tasks').optional();
const scopeOf = (agentId: string | undefined): TaskScope => (agentId ? { agentId } : {});
const paging = {
  page: z.number().int().min(1).default(1).describe('page number, from 1'),
  page_size: z.number().int().min(1).max(LIMITS.pageSize).default(DEFAULT_PAGE_SIZE).describe(`items per page, 1..${LIMITS.pageSize}`),
};

function short(text: unknown, max = 80): string {
  const value = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

const taskLine = (task: { id: string; status: string; prompt?: unknown }) => `${task.id}  ${task.status}  ${short(task.prompt)}`.trimEnd();

/** A page of a list as the list tools answer it, with how to read on. */
function pageAnswer<T>(items: T[], count: number, page: number, more: boolean, line: (item: T) => string, what: string) {
  const next = more ? page + 1 : null;
  const lines = items.map(line);
  const head = `${items.length} of ${count} ${what} (page ${page}${next ? `; more with page ${next}` : ''}).`;
  return { data: { count, page, next_page: next, results: items }, summary: [head, ...lines].join('\n') };
}

/** A tool that reads one page of a list of agents. */
function pagedList<T extends { id: string }>(list: {
  name: string;
  title: string;
  description: string;
  listPage: (client: ApiClient, request: PageRequest) => Promise<Page<T>>;
  line: (item: T) => string;
  what: string;
}) {
  return defineTool({
    name: list.name,
    title: list.title,
    description: list.description,
    kind: 'read',
    pageHint: 'ask for a smaller page_size',
    input: z.strictObject(paging),
    async run({ page, page_size }, call) {
      const answer = await list.listPage(await call.client(), { page, pageSize: page_size });
      return pageAnswer(answer.results, answer.count, page, Boolean(answer.next), list.line, list.what);
    },
  });
}

/** The task's result as tasks_result and tasks_wait answer it. */
async function resultAnswer(call: ToolCall, scope: TaskScope, id: string) {
  const result = await tasks.result(await call.client(), scope, id);
  const record = result as Record<string, unknown>;
  let summary = `Task ${id}: ${result.status}.`;
  if (result.status === 'failed') summary += ` ${String(record.error_message ?? 'no error message')}`;
  else if (result.status === 'completed' && record.result !== undefined && record.result !== null) {
    summary += `\nResult: ${typeof record.result === 'string' ? short(record.result, 500) : short(JSON.stringify(record.result), 500)}`;
  } else if (typeof record.message === 'string') summary += ` ${record.message}`;
  return { data: result as Record<string, unknown>, summary };
}

// ---------------------------------------------------------------------------------------------
// Tasks

/** The argument a usage error of buildTaskBody is about (its messages name the command's flags). */
const taskField = (error: Error) => (/--secret-env/.test(error.message) ? 'secrets_env' : /--secrets-file|secrets/.test(error.message) ? 'secrets_file' : 'prompt');

const tasksCreate = defineTool({
  name: 'tasks_create',
  title: 'Create a browser task',
  description:
    'Start a browser-automation task: a browser agent carries out the prompt on the web. Answers at once with the new task ' +
    '(status pending); follow it with tasks_wait, or tasks_get and tasks_result. Give output_schema (a JSON Schema) for a ' +
    'structured result. Secrets (logins) are never written here: name an environment variable of the server (secrets_env) ' +
    'or a JSON file on its machine (secrets_file); the agent sees them only as placeholders. Not idempotent: every call ' +
    'starts another task, so after an uncertain failure check with tasks_list before calling again.',
  kind: 'write',
  input: z.strictObject({
    prompt: z.string().describe('what the browser agent should do, in plain words'),
    output_schema: z.record(z.string(), z.unknown()).optional().describe('JSON Schema (an object) the result must follow'),
    secrets_env: z
      .array(
        z.strictObject({
          domain: z.string().describe('the site the secret is for, e.g. https://shop.example.com'),
          key: z.string().describe('the placeholder name, e.g. PASSWORD'),
          env: z.string().describe("the environment variable of the agentctl server that holds the value"),
        }),
      )
      .max(LIMITS.secrets)
      .optional()
      .describe('secrets read from environment variables of the server'),
    secrets_file: z.string().optional().describe('path to a JSON file {"https://site": {"KEY": "value"}} on the server\'s machine'),
    webhook: z.string().optional().describe('http(s) URL the service calls once when the task ends'),
    agent_id: agentScope,
  }),
  async run(args, call) {
    if (args.secrets_file === '-') throw new InputError('secrets_file', 'secrets_file must be a path (stdin carries the protocol)');
    const fields = {
      secrets: [],
      secretsFromEnv: (args.secrets_env ?? []).map(({ domain, key, env }) => ({ domain, key, variable: env })),
      secretsFile: args.secrets_file,
      webhook: args.webhook === undefined ? undefined : checkField('webhook', () => checkWebhookUrl(args.webhook as string)),
    };
    // stdin is the protocol's: a prompt of "-" is refused as empty rather than read from it.
    const io = { env: call.env, stdin: Readable.from([]) };
    const body = await checkField(taskField, () => buildTaskBody(args.prompt === '-' ? '' : args.prompt, fields, 'create', io, call.redactor));
    if (args.output_schema !== undefined) body.output_schema = checkField('output_schema', () => checkOutputSchema(args.output_schema));
    const task = await tasks.create(await call.client(), scopeOf(args.agent_id), body);
    return { data: task, summary: `Created task ${task.id} (${task.status}). Wait for it with tasks_wait.` };
  },
});

const tasksGet = defineTool({
  name: 'tasks_get',
  title: 'Get a task',
  description: 'One task: its status (pending, in_progress, completed, failed, cancelled), prompt, timestamps and error message. Does not include the result: use tasks_result.',
  kind: 'read',
  input: z.strictObject({ id: uuid('the task'), agent_id: agentScope }),
  async run({ id, agent_id }, call) {
    const task = await tasks.get(await call.client(), scopeOf(agent_id), id);
    return { data: task, summary: `Task ${taskLine(task)}${task.error_message ? `\nError: ${task.error_message}` : ''}` };
  },
});

const tasksResult = defineTool({
  name: 'tasks_result',
  title: "Get a task's result",
  description: "A task's result: for a completed task the result (text, or JSON following its output_schema); for a failed one the error message; for one still running, a note that there is no result yet.",
  kind: 'read',
  pageHint: 'the result itself is this large; read it as the resource agentctl://tasks/ID/result',
  input: z.strictObject({ id: uuid('the task'), agent_id: agentScope }),
  run: ({ id, agent_id }, call) => resultAnswer(call, scopeOf(agent_id), id),
});

const tasksCancel = defineTool({
  name: 'tasks_cancel',
  title: 'Cancel a task',
  description: 'Stop a pending or running task. Cancelling a task that has already ended changes nothing and says so.',
  kind: 'destructive',
  idempotent: true,
  input: z.strictObject({ id: uuid('the task'), agent_id: agentScope }),
  async run({ id, agent_id }, call) {
    const answer = await tasks.cancel(await call.client(), scopeOf(agent_id), id);
    return { data: answer, summary: `Task ${id}: ${answer.message ?? answer.status}` };
  },
});

const tasksList = defineTool({
  name: 'tasks_list',
  title: 'List tasks',
  description: 'Tasks, newest first, one page at a time. With status, only tasks in that status (pages are read on until a page\'s worth matches or the list ends). The answer says whether there is a next page.',
  kind: 'read',
  pageHint: 'ask for a smaller page_size',
  input: z.strictObject({ status: z.enum(TASK_STATUSES).optional().describe('keep only tasks in this status'), ...paging, agent_id: agentScope }),
  async run({ status, page, page_size, agent_id }, call) {
    const client = await call.client();
    const scope = scopeOf(agent_id);
    const source = {
      page: (request: { page?: number; pageSize?: number }) => tasks.listPage(client, scope, { ...request, signal: call.signal }),
      all: () => tasks.listAll(client, scope, {}),
      filter: status ? (task: Task) => task.status === status : undefined,
    };
    const { items, page: last, current } = await readPage(source, { page, pageSize: page_size, all: false });
    const answer = pageAnswer(items, last.count, current, Boolean(last.next), taskLine, 'tasks');
    return status ? { ...answer, summary: answer.summary.replace(' tasks (', ` tasks, keeping ${status} ones (`) } : answer;
  },
});

const tasksWait = defineTool({
  name: 'tasks_wait',
  title: 'Wait for a task to end',
  description:
    'Wait until a task ends (completed, failed or cancelled), then answer its result, as tasks_result does. Waits at most ' +
    'timeout_seconds (at most MAX_WAIT); if the task is still running then, the answer says so (finished: false) and you ' +
    'can call again. Sends progress notifications while waiting when asked for them; cancelling the call stops the wait, not the task.',
  kind: 'read',
  input: z.strictObject({
    id: uuid('the task'),
    timeout_seconds: z.number().positive().optional().describe('how long to wait at most, seconds (default and upper bound: the server\'s --max-wait)'),
    agent_id: agentScope,
  }),
  async run({ id, timeout_seconds, agent_id }, call) {
    const scope = scopeOf(agent_id);
    const timeoutMs = Math.min(timeout_seconds ?? call.maxWaitSeconds, call.maxWaitSeconds) * 1000;
    const client = await call.client();
    const started = call.clock.now();
    let polls = 0;
    const outcome = await waitForTask(
      { timeoutMs },
      {
        clock: call.clock,
        signal: call.signal,
        fetchTask: async () => {
          const task = await tasks.get(client, scope, id, { signal: call.signal, retries: 0 });
          polls++;
          await call.progress(call.clock.now() - started, timeoutMs, `task ${task.status} after ${Math.round((call.clock.now() - started) / 1000)} s (poll ${polls})`);
          return task;
        },
      },
    ).catch((error: unknown) => {
      throw withResumeHint(error, id, scope, call.signal);
    });
    if (outcome.kind !== 'finished') {
      const task = outcome.task;
      const why = outcome.kind === 'timed-out' ? `still ${task?.status ?? 'unknown'} after ${Math.round(timeoutMs / 1000)} s` : 'the service stayed unreachable';
      if (outcome.kind === 'outage') throw withResumeHint(outcome.error, id, scope);
      return { data: { id, status: task?.status ?? null, finished: false }, summary: `Task ${id} is ${why}; call tasks_wait again to keep waiting.` };
    }
    const answer = await resultAnswer(call, scope, id);
    return { data: { ...answer.data, finished: true }, summary: answer.summary };
  },
});

// ---------------------------------------------------------------------------------------------
// Browser-use agents (legacy)

const legacyLine = (agent: { id: string; name?: unknown }) => `${agent.id}  ${short(agent.name)}`;

const agentsList = pagedList({
  name: 'agents_list',
  title: 'List browser-use agents',
  description: 'Browser-use agents (the older agent kind that groups tasks), one page at a time.',
  listPage: legacyAgents.listPage,
  line: legacyLine,
  what: 'browser-use agents',
});

const agentsGet = defineTool({
  name: 'agents_get',
  title: 'Get a browser-use agent',
  description: 'One browser-use agent by id.',
  kind: 'read',
  input: z.strictObject({ id: uuid('the browser-use agent') }),
  async run({ id }, call) {
    const agent = await legacyAgents.get(await call.client(), id);
    return { data: agent, summary: `Browser-use agent ${legacyLine(agent)}` };
  },
});

const agentsCreate = defineTool({
  name: 'agents_create',
  title: 'Create a browser-use agent',
  description: 'Create a browser-use agent; its tasks are then created with agent_id. Every call creates another agent.',
  kind: 'write',
  input: z.strictObject({ name: z.string().describe(`the agent's name, at most ${LIMITS.legacyAgentName} characters`) }),
  async run({ name }, call) {
    const agent = await legacyAgents.create(await call.client(), { name: checkField('name', () => checkName(name, LIMITS.legacyAgentName)) });
    return { data: agent, summary: `Created browser-use agent ${legacyLine(agent)}` };
  },
});

const agentsDelete = defineTool({
  name: 'agents_delete',
  title: 'Delete a browser-use agent',
  description: 'Delete a browser-use agent for good. Cannot be undone.',
  kind: 'destructive',
  idempotent: true,
  input: z.strictObject({ id: uuid('the browser-use agent') }),
  async run({ id }, call) {
    await legacyAgents.delete(await call.client(), id);
    return { data: { id, deleted: true }, summary: `Deleted browser-use agent ${id}.` };
  },
});

// ---------------------------------------------------------------------------------------------
// Persistent agents

const persistentLine = (agent: { id: string; name?: unknown; is_active?: boolean; schedule?: unknown }) =>
  `${agent.id}  ${short(agent.name, 40)}  ${agent.is_active === false ? 'paused' : agent.is_active ? 'active' : ''}  ${typeof agent.schedule === 'string' ? agent.schedule : ''}`.trimEnd();

/** The writable fields, shared by create and update; `schedule` may be null (clear it) on update. */
const agentFields = {
  name: z.string().optional().describe(`the agent's name, at most ${LIMITS.persistentAgentName} characters`),
  charter: z.string().optional().describe("the agent's standing objectives, in plain words"),
  is_active: z.boolean().optional().describe('false pauses the agent'),
  life_state: z.enum(LIFE_STATES).optional().describe('soft expiry state'),
  whitelist_policy: z.enum(WHITELIST_POLICIES).optional().describe('who may message the agent: default (owner and organisation) or manual (allowlist)'),
  preferred_contact: z.string().optional().describe('email, sms, or a contact endpoint UUID'),
  proactive_opt_in: z.boolean().optional().describe('let the agent offer related help on its own'),
};
const scheduleField = z.string().describe('when the agent wakes up, in UTC: @daily, "@every 1h 30m", "0 9 * * mon-fri" (grammar: resource agentctl://schedule/grammar; check with schedule_preview)');

function agentBody(args: z.infer<z.ZodObject<typeof agentFields>> & { schedule?: string | null }): PersistentAgentBody {
  const body: PersistentAgentBody = {};
  if (args.name !== undefined) body.name = checkField('name', () => checkName(args.name as string, LIMITS.persistentAgentName));
  if (args.charter !== undefined) body.charter = args.charter;
  if (args.schedule !== undefined) body.schedule = args.schedule === null ? null : checkField('schedule', () => checkScheduleFlag(args.schedule as string));
  if (args.is_active !== undefined) body.is_active = args.is_active;
  if (args.life_state !== undefined) body.life_state = args.life_state;
  if (args.whitelist_policy !== undefined) body.whitelist_policy = args.whitelist_policy;
  if (args.preferred_contact !== undefined) body.preferred_contact_endpoint = checkField('preferred_contact', () => checkPreferredContact(args.preferred_contact as string));
  if (args.proactive_opt_in !== undefined) body.proactive_opt_in = args.proactive_opt_in;
  return body;
}

const persistentList = pagedList({
  name: 'persistent_list',
  title: 'List persistent agents',
  description: 'Persistent agents (long-lived agents with a charter, a schedule and channels), one page at a time.',
  listPage: persistentAgents.listPage,
  line: persistentLine,
  what: 'persistent agents',
});

const persistentGet = defineTool({
  name: 'persistent_get',
  title: 'Get a persistent agent',
  description: 'One persistent agent: name, charter, schedule, whether it is active, and its settings.',
  kind: 'read',
  input: z.strictObject({ id: uuid('the persistent agent') }),
  async run({ id }, call) {
    const agent = await persistentAgents.get(await call.client(), id);
    return { data: agent, summary: `Persistent agent ${persistentLine(agent)}${agent.charter ? `\nCharter: ${short(agent.charter, 300)}` : ''}` };
  },
});

const persistentCreate = defineTool({
  name: 'persistent_create',
  title: 'Create a persistent agent',
  description: 'Create a persistent agent with a charter (its objectives) and optionally a schedule. Every call creates another agent.',
  kind: 'write',
  input: z.strictObject({ ...agentFields, schedule: scheduleField.optional() }),
  async run(args, call) {
    const agent = await persistentAgents.create(await call.client(), agentBody(args));
    return { data: agent, summary: `Created persistent agent ${persistentLine(agent)}` };
  },
});

const persistentUpdate = defineTool({
  name: 'persistent_update',
  title: 'Update a persistent agent',
  description: 'Change some fields of a persistent agent; fields left out stay as they are. schedule null clears the schedule (the agent then acts only when messaged).',
  // Overwrites name, charter and schedule, and can expire the agent: not an additive update.
  kind: 'destructive',
  idempotent: true,
  input: z.strictObject({ id: uuid('the persistent agent'), ...agentFields, schedule: scheduleField.nullable().optional() }),
  async run({ id, ...fields }, call) {
    const body = agentBody(fields);
    if (Object.keys(body).length === 0) throw new InputError('(arguments)', 'nothing to update: give at least one field besides id');
    const agent = await persistentAgents.update(await call.client(), id, body);
    return { data: agent, summary: `Updated persistent agent ${persistentLine(agent)}` };
  },
});

function activation(active: boolean) {
  const verb = active ? 'activate' : 'deactivate';
  return defineTool({
    name: `persistent_${verb}`,
    title: `${active ? 'Activate' : 'Deactivate'} a persistent agent`,
    description: active ? 'Make a paused persistent agent active again (it follows its schedule and answers messages).' : 'Pause a persistent agent: it stops its schedule until activated again.',
    // Both change an existing agent's state (one pauses it, the other restarts its schedule): not additive.
    kind: 'destructive',
    idempotent: true,
    input: z.strictObject({ id: uuid('the persistent agent') }),
    async run({ id }, call) {
      const answer = await persistentAgents[verb](await call.client(), id);
      return { data: answer, summary: `Agent ${id}: ${answer.status}${answer.updated === false ? ' (no change)' : ''}` };
    },
  });
}

const persistentMessage = defineTool({
  name: 'persistent_message',
  title: 'Message a persistent agent',
  description: 'Send a message to a persistent agent as if it arrived on one of its channels; the agent may act on it. Answers the timeline event it became.',
  kind: 'write',
  input: z.strictObject({
    id: uuid('the persistent agent'),
    body: z.string().trim().min(1).describe('the message text'),
    channel: z.enum(MESSAGE_CHANNELS).default('web').describe('the channel it arrives on'),
    sender: z.string().trim().min(1).describe('who sends it: an address, number or handle on that channel'),
    recipient: z.string().optional().describe("the agent's address on that channel (needed when it has no endpoint there)"),
    subject: z.string().optional().describe('subject line (email)'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('extra JSON object passed along'),
  }),
  async run({ id, ...message }, call) {
    const answer = await persistentAgents.message(await call.client(), id, message as MessageBody);
    return { data: answer, summary: `Message delivered to agent ${id}.` };
  },
});

const persistentTimeline = defineTool({
  name: 'persistent_timeline',
  title: "Read a persistent agent's timeline",
  description:
    "A window of an agent's timeline (messages, steps, thinking, plans), oldest first within the window. Without a cursor: the newest window. " +
    'To read further back pass direction older with the answer\'s oldest_cursor; for newer events direction newer with newest_cursor.',
  kind: 'read',
  pageHint: 'ask for a smaller limit',
  input: z.strictObject({
    id: uuid('the persistent agent'),
    direction: z.enum(TIMELINE_DIRECTIONS).optional().describe('initial (newest window), older or newer than cursor'),
    cursor: z.string().optional().describe('oldest_cursor or newest_cursor of an earlier answer'),
    limit: z.number().int().min(1).max(PAGE_LIMITS.timeline.max).default(DEFAULT_PAGE_SIZE).describe(`events in the window, 1..${PAGE_LIMITS.timeline.max}`),
  }),
  async run({ id, direction, cursor, limit }, call) {
    if (cursor !== undefined && (direction === undefined || direction === 'initial')) {
      throw new InputError('direction', 'a cursor goes with direction older or newer');
    }
    const window = await persistentAgents.timeline(await call.client(), id, { direction, cursor, limit });
    const lines = window.events.map((event) => `${event.timestamp ?? ''}  ${event.kind}  ${describeEvent(event, 200)}`);
    const more = [window.has_more_older ? `older: direction older, cursor ${window.oldest_cursor}` : '', window.has_more_newer ? `newer: direction newer, cursor ${window.newest_cursor}` : '']
      .filter(Boolean)
      .join('; ');
    return { data: window, summary: [`${window.events.length} events${more ? ` (more ${more})` : ''}.`, ...lines].join('\n') };
  },
});

const persistentStatus = defineTool({
  name: 'persistent_status',
  title: "A persistent agent's status",
  description: 'Whether a persistent agent is working now: its running web tasks and its next scheduled run.',
  kind: 'read',
  input: z.strictObject({ id: uuid('the persistent agent') }),
  async run({ id }, call) {
    const status = await persistentAgents.processingStatus(await call.client(), id);
    const snapshot = status.processing_snapshot ?? {};
    const running = snapshot.webTasks?.length ?? 0;
    const next = snapshot.nextScheduledAt ? `; next scheduled run ${snapshot.nextScheduledAt}` : '';
    return { data: status, summary: `Agent ${id} is ${status.processing_active ? 'working' : 'idle'} (${running} web task${running === 1 ? '' : 's'} running${next}).` };
  },
});

const persistentWebTasks = defineTool({
  name: 'persistent_web_tasks',
  title: "A persistent agent's web tasks",
  description: 'The browser tasks a persistent agent started, newest first.',
  kind: 'read',
  pageHint: 'ask for a smaller limit',
  input: z.strictObject({
    id: uuid('the persistent agent'),
    status: z.enum(TASK_STATUSES).optional().describe('keep only tasks in this status'),
    limit: z.number().int().min(1).max(PAGE_LIMITS.webTasks.max).default(DEFAULT_PAGE_SIZE).describe(`at most this many, 1..${PAGE_LIMITS.webTasks.max}`),
  }),
  async run({ id, status, limit }, call) {
    const answer = await persistentAgents.webTasks(await call.client(), id, { status, limit });
    // The service filters by itself; filtering again keeps the promise if one does not.
    const results = status ? answer.results.filter((task) => task.status === status) : answer.results;
    return { data: { ...answer, results }, summary: [`${results.length} web tasks.`, ...results.map(taskLine)].join('\n') };
  },
});

const schedulePreview = defineTool({
  name: 'schedule_preview',
  title: 'Preview a schedule',
  description: 'Check a schedule expression offline with the grammar the service accepts, describe it, and list its next fire times (UTC). Sends nothing to the service.',
  kind: 'read',
  openWorld: false,
  input: z.strictObject({
    expression: z.string().describe('the schedule: @daily, "@every 1h 30m", "0 9 * * mon-fri", ...'),
    count: z.number().int().min(1).max(100).default(5).describe('how many fire times'),
    from: z.string().optional().describe('list fire times after this ISO 8601 instant (default now)'),
  }),
  async run({ expression, count, from }, call) {
    const options = checkField('from', () => parsePreviewOptions(expression, { count: String(count), from }, new Date(call.clock.now())));
    const preview = checkField('expression', () => localPreview(options));
    return { data: { ...preview }, summary: `${preview.description}\nNext: ${preview.next.join(', ') || 'none'}` };
  },
});

export const TOOLS: Tool[] = [
  tasksCreate,
  tasksGet,
  tasksResult,
  tasksCancel,
  tasksList,
  tasksWait,
  agentsList,
  agentsGet,
  agentsCreate,
  agentsDelete,
  persistentList,
  persistentGet,
  persistentCreate,
  persistentUpdate,
  activation(true),
  activation(false),
  persistentMessage,
  persistentTimeline,
  persistentStatus,
  persistentWebTasks,
  schedulePreview,
] as unknown as Tool[];
