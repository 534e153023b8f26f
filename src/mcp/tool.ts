// What a tool of `agentctl mcp` is: one zod schema for its arguments (which checks them and,
// converted, is the JSON Schema the client sees, descriptions included), one for its answer (the
// outputSchema, from the same schemas the client checks the service's answers with), a description
// for a model, its kind (which sets the annotations and what --read-only keeps), its toolset, and a
// handler that answers data plus a summary.
import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import type { Redactor } from '../api/redact.js';
import type { Clock } from '../contract/clock.js';
import { isUuid } from '../contract/validate.js';
import { namedAs, type FieldNames } from '../core/fields.js';
import type { SecretPolicy } from '../core/secrets.js';

import type { Confirmation } from './confirm.js';
import type { ToolNames } from './names.js';
import type { Toolset } from './options.js';

/**
 * read: changes nothing; write: only adds (a new task, agent or message); destructive: deletes, stops,
 * overwrites or pauses what exists. The MCP spec's destructiveHint false means "only additive updates".
 */
export type ToolKind = 'read' | 'write' | 'destructive';

export { TOOLSETS, type Toolset } from './options.js';

/** What the server was started with that a tool's description or handler depends on. */
export interface ToolSettings {
  /** The longest wait a call may ask for, seconds (--max-wait). */
  maxWaitSeconds: number;
  /** How long tasks_wait waits when not told, seconds: well inside a client's 60 s request limit. */
  waitSeconds: number;
  /** Which secrets a caller may name (--allow-secret-env, --secrets-dir). */
  secrets: SecretPolicy;
  /** How to name a tool in text (descriptions, summaries): prefixed, and only when offered. */
  names: ToolNames;
  /** The one folder of agent files the as-code tools read and apply (--agents-dir): a model picks no path. */
  agentsDir: string;
}

/** What a handler gets besides its checked arguments. */
export interface ToolCall extends ToolSettings {
  client: () => Promise<ApiClient>;
  /**
   * Aborted when the client cancels the call. Work that goes on stops on it (a wait's polls, a
   * filtered list's pages); a single request is left to finish instead (the SDK drops a cancelled
   * call's answer, and a create's outcome is then known): listening costs each request ~10 us.
   */
  signal: AbortSignal;
  /** Tells the client how far a long call is (only when it asked for progress). */
  progress: (progress: number, total: number | undefined, message: string) => Promise<void>;
  /** Asks the person at the client to confirm (elicitation); 'unavailable' where the client cannot ask. */
  confirm: (message: string) => Promise<Confirmation>;
  clock: Clock;
  env: Record<string, string | undefined>;
  redactor: Redactor;
}

/** A resource a tool's answer points to (a task's result, an agent's timeline). */
export interface AnswerLink {
  uri: string;
  name: string;
  description: string;
}

/** A handler's answer: the data (structuredContent) and a few lines a person or model reads first. */
export interface ToolAnswer {
  data: Record<string, unknown>;
  /** Our own words: what happened and what to do next. */
  summary: string;
  /** Lines quoting the service's text (results, prompts, names, messages): shown fenced as untrusted data. */
  quoted?: string[];
  links?: AnswerLink[];
}

export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /**
   * For a model: what it does, when to use it, what it answers; may depend on the server's settings.
   * Other tools are named through settings.names (a function, then), never written out.
   */
  description: string | ((settings: ToolSettings) => string);
  /** The arguments; a function when their bounds depend on the server's settings (tasks_wait's timeout). */
  input: S | ((settings: ToolSettings) => S);
  /** The data of a successful answer, as a zod schema (our own, or the service's from src/api/schemas). */
  output: z.core.$ZodType;
  kind: ToolKind;
  toolset: Toolset;
  /** Calling it twice with the same arguments has no further effect (reads always are). */
  idempotent?: boolean;
  /** False for tools that work offline (schedule_preview). */
  openWorld?: boolean;
  /** How to read less at once, said when an answer is too large to return. */
  pageHint?: string;
  /** The tool to call after a "not found" (the list that shows what exists). */
  findWith?: string;
  run(args: z.infer<S>, call: ToolCall): Promise<ToolAnswer>;
}

export function defineTool<S extends z.ZodObject>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** A tool's arguments schema for a server with these settings. */
export const inputOf = (tool: Tool, settings: ToolSettings): z.ZodObject => (typeof tool.input === 'function' ? tool.input(settings) : tool.input);

/**
 * Runs a core builder, an input error it throws naming the tool's argument rather than the core's
 * field where the two differ (`preferred_contact_endpoint` is the argument `preferred_contact`); the
 * input as a whole is the call's arguments.
 */
export const withArguments = <T>(names: FieldNames, build: () => T): T => namedAs({ input: '(arguments)', ...names }, build);

/** An id argument: checked as the commands check ids, lower-cased as they send them. */
export const uuid = (what: string) =>
  z
    .string()
    .refine(isUuid, 'is not a UUID (ids look like 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f)')
    // overwrite, not transform: the same check, without the pipe zod builds for a transform.
    .overwrite((id) => id.toLowerCase())
    .meta({ format: 'uuid', description: `${what} (a UUID)` });
