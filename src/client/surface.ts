// What a user of `agentctl/client` calls: the client, its parts and their options, as interfaces
// that name nothing internal (the declarations users install stop at these, types.ts and the errors).
import type { PlanRecord } from '../agents-as-code/plan-record.js';
import type { Clock } from '../contract/clock.js';
import type { AgentToolsApi } from './surface-tools.js';
import type {
  ActivationResponse,
  CancelResponse,
  CreateTaskInput,
  LegacyAgent,
  MessageInput,
  MessageResponse,
  PersistentAgent,
  PersistentAgentInput,
  ProcessingStatus,
  SchedulePreview,
  Task,
  TaskResult,
  TaskStatus,
  Timeline,
  TimelineEvent,
  WebTask,
} from './types.js';

export interface ClientOptions {
  /** The service's API root, e.g. `http://localhost:8000/api/v1` (a self-hosted gobii-platform), or an emulator's `baseUrl`. */
  baseUrl: string;
  /** Sent as X-Api-Key; never appears in an error or a trace line. */
  apiKey: string;
  /** Each request's time limit in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Further attempts of a request that failed transiently and may be repeated (default 4; never a create). */
  retries?: number;
  /** Aborts every request, wait and pause of this client. */
  signal?: AbortSignal;
  /** The largest response body read, in bytes (default 64 MiB). */
  maxResponseBytes?: number;
  /** Receives one line per request, answer and retry, with secrets redacted. */
  trace?: (line: string) => void;
  /** Sent as User-Agent (default `agentctl-client/<version> node/<version>`). */
  userAgent?: string;
  /** Time and sleeping for waits and backoff (a fake clock in tests). */
  clock?: Clock;
  /**
   * Allows a plain `http://` baseUrl to a host that is not this machine, which sends the API key in
   * clear text (default false: createClient throws InputError naming `baseUrl`). Loopback
   * (localhost, 127.0.0.0/8, ::1) needs no permission.
   */
  allowInsecureHttp?: boolean;
  /**
   * Appends each request and its answer to this file, one JSON line each (a cassette, as the
   * command line's `--record FILE` writes): the API key, task secrets and URL tokens are taken
   * out before anything is written. `agentctl emulator check FILE` replays it (docs/conformance.md).
   */
  record?: string;
}

/** Per call: an AbortSignal that stops this call alone (its request, wait or walk) at once. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface AgentctlClient {
  /** Browser-use tasks, standalone or under a legacy agent (`agentId`). */
  readonly tasks: TasksApi;
  /** Legacy browser-use agents. */
  readonly agents: LegacyAgentsApi;
  /** Persistent agents, their messages and timelines. */
  readonly persistent: PersistentApi;
  /** Schedule expressions, checked and evaluated locally. */
  readonly schedule: ScheduleApi;
  /** The base URL requests go to (normalised). */
  readonly baseUrl: string;
  /** Drops kept-alive connections (they never hold the process open anyway). */
  close(): void;
}

/** A call on one task, standalone or under a legacy agent. */
export interface TaskCallOptions extends CallOptions {
  /** The legacy agent the task belongs to (`/agents/browser-use/ID/tasks/`). */
  agentId?: string;
}

export interface ListTasksOptions extends TaskCallOptions {
  /** Tasks per request, 1..100 (default 100): fewer, larger pages are fewer requests. */
  pageSize?: number;
}

export interface WaitForTaskOptions extends TaskCallOptions {
  /** Give up (WaitTimeoutError) after this many milliseconds; without, wait until the task ends. */
  timeoutMs?: number;
  /** The longest pause between polls (default 2,000 ms); polls start fast and back off. */
  maxIntervalMs?: number;
  /** How long the service may stay unreachable before the wait gives up with its last error (default 300,000 ms). */
  maxOutageMs?: number;
  /** Told each status the task is seen in, first to last. */
  onStatus?: (task: Task) => void;
}

export interface TasksApi {
  /** Creates a task (sent once: a create is never repeated, so a failure may leave one behind). */
  create(input: CreateTaskInput, options?: CallOptions): Promise<Task>;
  get(id: string, options?: TaskCallOptions): Promise<Task>;
  /** Every task, newest first, reading pages as the loop asks for them (a few ahead). */
  list(options?: ListTasksOptions): AsyncIterable<Task>;
  /**
   * Polls until the task ends and answers its final record, whatever it ended as (`completed`,
   * `failed`, `cancelled`): read `status`. Rides out outages, honouring Retry-After.
   */
  wait(id: string, options?: WaitForTaskOptions): Promise<Task>;
  /** The result endpoint: status, and the result or error once the task has ended. */
  result(id: string, options?: TaskCallOptions): Promise<TaskResult>;
  cancel(id: string, options?: TaskCallOptions): Promise<CancelResponse>;
  delete(id: string, options?: TaskCallOptions): Promise<void>;
}

export interface ListOptions extends CallOptions {
  /** Records per request, 1..100 (default 100). */
  pageSize?: number;
}

/** Legacy browser-use agents: named groups of tasks. */
/** Where plan reads agent files: a folder (with its lock file), or files given as text (matched by name). */
export type AgentsPlanSource = { dir: string } | { files: Array<{ file: string; text: string }> };

/** What apply may delete: agents it created whose files are gone (`created`), and these agents by name. */
export interface PruneInput {
  created?: boolean;
  names?: string[];
}

/** A plan (the same document as `agentctl plan --json`). */
export type AgentsPlan = PlanRecord;

export interface AgentsApplyInput {
  dir: string;
  prune?: PruneInput;
  /** Consent without looking: required unless `confirm` is given. */
  yes?: boolean;
  /** Sees the plan (when it changes something) and answers whether to go on. */
  confirm?: (plan: AgentsPlan) => boolean | Promise<boolean>;
}

export interface AgentsApplyResult extends AgentsPlan {
  /** What was done, step by step (empty when nothing was to do or confirm said no). */
  applied: Array<{ action: string; file: string; name: string; id?: string }>;
}

/** Persistent agents as code (docs/agents-as-code.md): a folder of agent files planned and applied. */
export interface AgentsAsCodeApi {
  /** What apply would change. Read-only. */
  plan(source: AgentsPlanSource, options?: CallOptions & { prune?: PruneInput }): Promise<AgentsPlan>;
  /** Makes the service match the folder, under its lock, each step recorded in its agentctl.lock.json. */
  apply(input: AgentsApplyInput, options?: CallOptions): Promise<AgentsApplyResult>;
}

/** Legacy browser-use agents; and `plan`/`apply` of persistent agents as code. */
export interface LegacyAgentsApi extends AgentsAsCodeApi {
  create(input: { name: string }, options?: CallOptions): Promise<LegacyAgent>;
  get(id: string, options?: CallOptions): Promise<LegacyAgent>;
  /** Every agent, reading pages as the loop asks for them. */
  list(options?: ListOptions): AsyncIterable<LegacyAgent>;
  update(id: string, input: { name: string }, options?: CallOptions): Promise<LegacyAgent>;
  delete(id: string, options?: CallOptions): Promise<void>;
}

export interface WebTasksOptions extends CallOptions {
  status?: TaskStatus;
  limit?: number;
}

export interface TimelineOptions extends CallOptions {
  /** Which window: the newest (`initial`, the default), or the one `older`/`newer` than `cursor`. */
  direction?: 'initial' | 'older' | 'newer';
  cursor?: string;
  /** Events per window, 1..100 (default 40). */
  limit?: number;
}

export interface WaitForEventOptions extends CallOptions {
  afterCursor?: string;
  /** Only events of this kind. */
  type?: 'message' | 'steps' | 'thinking' | 'plan';
  /** Only events from: `agent` (its messages: its replies), `human_user`, `external`, `system`. */
  from?: 'agent' | 'human_user' | 'external' | 'system';
  /** Only messages on this channel. */
  channel?: string;
  timeoutMs?: number;
}

export interface WaitForEventResult {
  matched: boolean;
  events: TimelineEvent[];
  /** Where the next wait goes on from. */
  cursor: string | null;
}

export interface PersistentApi extends AgentToolsApi {
  /** Creates an agent (without a `name`, the service picks one); a `schedule` is checked locally first. */
  create(input: PersistentAgentInput, options?: CallOptions): Promise<PersistentAgent>;
  get(id: string, options?: CallOptions): Promise<PersistentAgent>;
  list(options?: ListOptions): AsyncIterable<PersistentAgent>;
  /** Changes the fields given (PATCH); `schedule: null` clears the schedule. */
  update(id: string, input: PersistentAgentInput, options?: CallOptions): Promise<PersistentAgent>;
  delete(id: string, options?: CallOptions): Promise<void>;
  activate(id: string, options?: CallOptions): Promise<ActivationResponse>;
  deactivate(id: string, options?: CallOptions): Promise<ActivationResponse>;
  /**
   * Sends the agent a message the way the service processes it: on `web` through the service's own
   * MCP send, elsewhere to the agent's own address (a `recipient` that is not its own: InputError).
   * The answer's `cursor` is where its reply comes after: `waitForEvent(id, { afterCursor })`.
   */
  message(id: string, input: MessageInput, options?: CallOptions): Promise<MessageResponse>;
  /**
   * Waits until an event after `afterCursor` (left out: after the newest now) matches, or `timeoutMs`
   * (default 30,000) passes: the service's event wait over durable cursors. Go on from the answer's
   * `cursor` and no event is missed or seen twice. Needs the service's MCP endpoint (gobii-platform 2.20.0+).
   */
  waitForEvent(id: string, options?: WaitForEventOptions): Promise<WaitForEventResult>;
  /** Whether the agent is working now, its web tasks and its next scheduled run. */
  status(id: string, options?: CallOptions): Promise<ProcessingStatus>;
  /** The browser tasks the agent started, newest first: at most `limit` (1..200, default 50), of one `status` if given. */
  webTasks(id: string, options?: WebTasksOptions): Promise<WebTask[]>;
  /** One window of the timeline (events oldest first, with the cursors to read on). */
  timeline(id: string, options?: TimelineOptions): Promise<Timeline>;
  /**
   * The whole timeline, newest window first (each window's events oldest first), following the
   * service's cursors back to the first event; ends with an error if the windows would never end.
   */
  events(id: string, options?: Omit<TimelineOptions, 'direction' | 'cursor'>): AsyncIterable<TimelineEvent>;
}

export interface SchedulePreviewOptions extends CallOptions {
  /** How many fire times, 1..1000 (default 5). */
  count?: number;
  /** List fire times after this instant (default now). */
  from?: Date;
  /** Also ask the service for its answer about this persistent agent's schedule (one GET, one POST). */
  agentId?: string;
}

export interface ScheduleApi {
  /**
   * Checks a schedule expression (`@daily`, `@every 1h 30m`, `0 9 * * mon-fri`...) with the service's
   * grammar, describes it and lists its next fire times in UTC. An invalid one is an InputError of
   * the field `schedule`, found without a request.
   */
  preview(expression: string, options?: SchedulePreviewOptions): Promise<SchedulePreview>;
}
