import * as z from 'zod/mini';

// Schemas accept unknown extra fields (looseObject) and are lenient about nullability: they check
// what the CLI relies on, so a deployment that adds a field never breaks a script.
export const dateTime = z.string();
export const nullableString = z.optional(z.nullable(z.string()));

export { TASK_STATUSES, FINAL_TASK_STATUSES, type TaskStatus } from '../../contract/enums.js';

/** A page of a list. The document requires only count and results: a missing link reads as null. */
export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    count: z.int().check(z.nonnegative()),
    next: z._default(z.nullable(z.string()), null),
    previous: z._default(z.nullable(z.string()), null),
    results: z.array(item),
  });
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export const PingSchema = z.looseObject({ pong: z.optional(z.boolean()), user: z.optional(z.string()) });
