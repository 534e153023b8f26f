import { z } from 'zod';
import { TASK_STATUSES, dateTime, nullableString } from './common.js';

const status = z.enum(TASK_STATUSES);

export const TaskSchema = z.looseObject({
  id: z.string(),
  agent: z.string().nullable().optional(),
  agent_id: z.string().nullable().optional(),
  prompt: z.unknown().optional(),
  output_schema: z.unknown().optional(),
  status,
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
  error_message: nullableString,
  credits_cost: z.union([z.string(), z.number()]).nullable().optional(),
  webhook: nullableString,
  webhook_last_called_at: nullableString,
  webhook_last_status_code: z.number().nullable().optional(),
  webhook_last_error: nullableString,
  // Present on the synchronous-wait answer when the wait ran out.
  wait_error: z.string().optional(),
});
export type Task = z.infer<typeof TaskSchema>;

export const TaskResultSchema = z.looseObject({
  id: z.string().optional(),
  agent_id: z.string().nullable().optional(),
  status,
  result: z.unknown().optional(),
  error_message: nullableString,
  message: nullableString,
});
export type TaskResult = z.infer<typeof TaskResultSchema>;

export const CancelResponseSchema = z.looseObject({ status: z.string(), message: z.string().optional() });
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

/** `{"<domain>": {"<KEY>": "<value>"}}`: write-only, never returned by the service. */
export type Secrets = Record<string, Record<string, string>>;
