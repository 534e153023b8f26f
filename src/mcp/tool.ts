// What a tool of `agentctl mcp` is: one zod schema (which checks the arguments and, converted, is the
// JSON Schema the client sees, descriptions included), a description for a model, its kind (which
// sets the annotations and what --read-only keeps), and a handler that answers data plus a summary.
import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import type { Redactor } from '../api/redact.js';
import type { Clock } from '../contract/clock.js';
import { isUuid } from '../contract/validate.js';
import { UsageError } from '../errors.js';

/**
 * read: changes nothing; write: only adds (a new task, agent or message); destructive: deletes, stops,
 * overwrites or pauses what exists. The MCP spec's destructiveHint false means "only additive updates".
 */
export type ToolKind = 'read' | 'write' | 'destructive';

/** What a handler gets besides its checked arguments. */
export interface ToolCall {
  client: () => Promise<ApiClient>;
  /**
   * Aborted when the client cancels the call. Work that goes on stops on it (a wait's polls, a
   * filtered list's pages); a single request is left to finish instead (the SDK drops a cancelled
   * call's answer, and a create's outcome is then known): listening costs each request ~10 us.
   */
  signal: AbortSignal;
  /** Tells the client how far a long call is (only when it asked for progress). */
  progress: (progress: number, total: number | undefined, message: string) => Promise<void>;
  clock: Clock;
  env: Record<string, string | undefined>;
  redactor: Redactor;
  /** The longest wait a call may ask for, in seconds (--max-wait). */
  maxWaitSeconds: number;
}

/** A handler's answer: the data (structuredContent) and a few lines a person or model reads first. */
export interface ToolAnswer {
  data: Record<string, unknown>;
  summary: string;
}

export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  kind: ToolKind;
  /** Calling it twice with the same arguments has no further effect (reads always are). */
  idempotent?: boolean;
  /** False for tools that work offline (schedule_preview). */
  openWorld?: boolean;
  /** How to read less at once, said when an answer is too large to return. */
  pageHint?: string;
  run(args: z.infer<S>, call: ToolCall): Promise<ToolAnswer>;
}

export function defineTool<S extends z.ZodObject>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** A usage error that names the argument it is about. */
export class InputError extends UsageError {
  constructor(
    readonly field: string,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

/** Runs one of our own checks (contract/validate.ts), naming `field` in the usage error it throws. */
export function checkField<T>(field: string | ((error: UsageError) => string), check: () => T): T {
  const named = (error: unknown) => {
    if (!(error instanceof UsageError) || error instanceof InputError) return error;
    return new InputError(typeof field === 'string' ? field : field(error), error.message, error.hint);
  };
  try {
    const value = check();
    if (value instanceof Promise) return value.catch((error: unknown) => Promise.reject(named(error))) as T;
    return value;
  } catch (error) {
    throw named(error);
  }
}

/** An id argument: checked as the commands check ids, lower-cased as they send them. */
export const uuid = (what: string) =>
  z
    .string()
    .refine(isUuid, 'is not a UUID (ids look like 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f)')
    // overwrite, not transform: the same check, without the pipe zod builds for a transform.
    .overwrite((id) => id.toLowerCase())
    .describe(`${what} (a UUID)`);
