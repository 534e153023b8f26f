// The library `agentctl/client`'s records and inputs. A record the service sends has one source,
// its zod schema in src/api/schemas (the schema the client checks the answer against), not a copy
// here: src/api/schemas/records.ts names it, `doc()` on the schema gives it and its fields their
// JSDoc, and `npm run generate` writes its plain declaration into records.generated.ts (users'
// type checks need no zod), re-exported here. A schema change is a change of the declared type
// (test/core/record-types.test.ts fails until the file is generated again). Declared here by hand
// are only the library's own inputs and answers, which no response schema describes.
import type { Secrets, ServiceSchedulePreview } from './records.generated.js';

export type * from './records.generated.js';

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

/** The writable fields of a persistent agent: the core's input (src/core/persistent-input.ts), checked by src/core/persistent-body.ts. */
export type { PersistentAgentInput } from '../core/persistent-input.js';

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
