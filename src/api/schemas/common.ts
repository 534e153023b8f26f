import { z } from 'zod';

// Schemas accept unknown extra fields (looseObject) and are lenient about nullability: they check
// what the CLI relies on, so a deployment that adds a field never breaks a script.
export const dateTime = z.string();
export const nullableString = z.string().nullable().optional();

export { TASK_STATUSES, FINAL_TASK_STATUSES, type TaskStatus } from '../../contract/enums.js';

/** A page of a list. The document requires only count and results: a missing link reads as null. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    count: z.number().int().nonnegative(),
    next: z.string().nullable().default(null),
    previous: z.string().nullable().default(null),
    results: z.array(item),
  });
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export const PingSchema = z.looseObject({ pong: z.boolean().optional(), user: z.string().optional() });
