import * as z from 'zod/mini';
import { TASK_STATUSES, dateTime, doc, nullableString } from './common.js';

export const TaskStatusSchema = doc("A task's status: `pending` or `in_progress` until it ends `completed`, `failed` or `cancelled`.", z.enum(TASK_STATUSES));

export const TaskSchema = doc('A browser-use task as the service returns it.', z.looseObject({
  id: z.string(),
  agent: z.optional(z.nullable(z.string())),
  agent_id: z.optional(z.nullable(z.string())),
  prompt: z.optional(z.unknown()),
  output_schema: z.optional(z.unknown()),
  status: TaskStatusSchema,
  created_at: z.optional(dateTime),
  updated_at: z.optional(dateTime),
  error_message: nullableString,
  credits_cost: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  webhook: nullableString,
  webhook_last_called_at: nullableString,
  webhook_last_status_code: z.optional(z.nullable(z.number())),
  webhook_last_error: nullableString,
  wait_error: doc("Present on the answer of a create with `wait` when the service's wait ran out.", z.optional(z.string())),
}));
export type Task = z.infer<typeof TaskSchema>;

/**
 * What a batch uses of a create's answer: the new task's id. Checking the whole record cost ~3 µs a
 * task, and a loose object copies every key of it.
 */
export const CreatedTaskSchema = z.object({ id: z.string() });

export const TaskResultSchema = doc("A task's result endpoint: its status and, once it has ended, its result or error.", z.looseObject({
  id: z.optional(z.string()),
  agent_id: z.optional(z.nullable(z.string())),
  status: TaskStatusSchema,
  result: z.optional(z.unknown()),
  error_message: nullableString,
  message: nullableString,
}));
export type TaskResult = z.infer<typeof TaskResultSchema>;

export const CancelResponseSchema = doc('The answer to a cancel.', z.looseObject({ status: z.string(), message: z.optional(z.string()) }));
export type CancelResponse = z.infer<typeof CancelResponseSchema>;

/** The task body of create, update and replace. */
export interface TaskBody {
  agent?: string | null;
  prompt?: string | null;
  output_schema?: unknown;
  wait?: number;
  secrets?: Secrets;
  credits_cost?: string | null;
  webhook?: string | null;
}

/** Credentials a task may use, by domain (src/contract/validate.ts checks them with the service's rules). */
export const SecretsSchema = doc(
  '`{"<domain>": {"<KEY>": "<value>"}}`: write-only, never returned by the service.',
  z.record(z.string(), z.record(z.string(), z.string())),
);
export type Secrets = z.output<typeof SecretsSchema>;
