// The records and inputs of the library `agentctl/client`, written out as plain interfaces: the
// declarations users install must not depend on zod (a devDependency, bundled away), and a user
// reads these rather than our response schemas. Records keep every field the service sends (the
// index signature), as the service sent them. Each is held to its response schema (src/api/schemas)
// by test/core/record-types.test.ts (assignable both ways, checked by tsc), so the library hands
// the API layer's records on without a cast.

export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

/** A browser-use task as the service returns it. */
export interface Task {
  id: string;
  status: TaskStatus;
  agent?: string | null;
  agent_id?: string | null;
  prompt?: unknown;
  output_schema?: unknown;
  created_at?: string;
  updated_at?: string;
  error_message?: string | null;
  credits_cost?: string | number | null;
  webhook?: string | null;
  webhook_last_called_at?: string | null;
  webhook_last_status_code?: number | null;
  webhook_last_error?: string | null;
  /** Present on the answer of a create with `wait` when the service's wait ran out. */
  wait_error?: string;
  [field: string]: unknown;
}

/** A task's result endpoint: its status and, once it has ended, its result or error. */
export interface TaskResult {
  id?: string;
  agent_id?: string | null;
  status: TaskStatus;
  result?: unknown;
  error_message?: string | null;
  message?: string | null;
  [field: string]: unknown;
}

export interface CancelResponse {
  status: string;
  message?: string;
  [field: string]: unknown;
}

/** `{"<domain>": {"<KEY>": "<value>"}}`: write-only, never returned by the service. */
export type Secrets = Record<string, Record<string, string>>;

/** What `tasks.create` sends. */
export interface CreateTaskInput {
  prompt: string;
  /** A JSON Schema object the result must follow. */
  outputSchema?: Record<string, unknown>;
  /** Credentials the task may use, by domain; redacted from every error and trace of this client. */
  secrets?: Secrets;
  /** An http(s) URL the service posts to when the task ends. */
  webhook?: string;
  /** Seconds the service itself waits for the task before answering (0..1350). */
  wait?: number;
  /** Create it under this legacy agent (`/agents/browser-use/ID/tasks/`). */
  agentId?: string;
}

/** A legacy browser-use agent. */
export interface LegacyAgent {
  id: string;
  name: string;
  user_email?: string | null;
  created_at?: string;
  updated_at?: string;
  [field: string]: unknown;
}

/** A persistent agent. */
export interface PersistentAgent {
  id: string;
  name: string;
  charter?: string | null;
  schedule?: string | null;
  is_active?: boolean;
  life_state?: string;
  whitelist_policy?: string;
  created_at?: string;
  updated_at?: string;
  [field: string]: unknown;
}

/** The writable fields of a persistent agent: the core's input (src/core/persistent-input.ts), checked by src/core/persistent-body.ts. */
export type { PersistentAgentInput } from '../core/persistent-input.js';

export interface ActivationResponse {
  status: string;
  updated?: boolean;
  [field: string]: unknown;
}

export interface ProcessingStatus {
  processing_active: boolean;
  processing_snapshot?: { active?: boolean; webTasks?: Array<{ id?: string }>; nextScheduledAt?: string | null; [field: string]: unknown } | null;
  [field: string]: unknown;
}

export interface MessageInput {
  channel: 'email' | 'sms' | 'slack' | 'discord' | 'web' | 'other';
  /** Who sends it: the owner's address on the channel. On `web` leave it out: the service sends as the key's user, the owner. */
  sender?: string;
  body: string;
  /** The agent's own address on the channel; best left out (the service uses the agent's own). Any other is refused (InputError, field `recipient`) before sending. */
  recipient?: string;
  subject?: string;
  metadata?: Record<string, unknown>;
}

/**
 * A message the service took: `via` says how (`service-mcp`: the service's own MCP send, on web;
 * `rest`: the messages route, to the agent's own address), `cursor` is its place in the timeline
 * (the agent's answer comes after it: `waitForEvent(id, { afterCursor: cursor })`).
 */
export interface MessageResponse {
  via: 'service-mcp' | 'rest';
  event: { kind?: string; [field: string]: unknown };
  cursor: string | null;
  status?: string;
  [field: string]: unknown;
}

/** A browser task a persistent agent started. */
export interface WebTask {
  id: string;
  status: string;
  [field: string]: unknown;
}

/** One event of a persistent agent's timeline. */
export interface TimelineEvent {
  kind: string;
  cursor?: string;
  timestamp?: string;
  [field: string]: unknown;
}

/** One window of a timeline, events oldest first. */
export interface Timeline {
  events: TimelineEvent[];
  oldest_cursor?: string | null;
  newest_cursor?: string | null;
  has_more_older?: boolean;
  has_more_newer?: boolean;
  processing_active?: boolean;
  [field: string]: unknown;
}

/** What the service says of a schedule expression. */
export interface ServiceSchedulePreview {
  valid?: boolean;
  disabled?: boolean;
  description?: string | null;
  [field: string]: unknown;
}

/** A schedule checked and evaluated locally (the service's grammar, ported from its code). */
export interface SchedulePreview {
  expression: string;
  /** False only where the service's parser crashes on the expression (a 500 there): see `warning`. */
  valid: boolean;
  /** In words, as the service's preview says it: "At 09:00, Monday through Friday". */
  description: string;
  /** The next fire times, ISO 8601 in UTC. */
  next: string[];
  /** Why the service answers this expression with a 500. */
  warning?: string;
  /** The service's own answer, when an agent was named. */
  service?: ServiceSchedulePreview;
}
