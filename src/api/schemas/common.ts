import * as z from 'zod/mini';

// Schemas accept unknown extra fields (looseObject) and are lenient about nullability: they check
// what the CLI relies on, so a deployment that adds a field never breaks a script.
export const dateTime = z.string();
export const nullableString = z.optional(z.nullable(z.string()));

/**
 * The words a record or field of the library shows its users (the JSDoc of the declarations
 * `npm run generate` writes from these schemas, src/api/schemas/declare.ts). A registry of our own,
 * not zod's global one: a description there would also enter the MCP tools' output schemas, and
 * `.check(z.describe())` would add a check, which leaves a schema's predicate to zod (accept.ts).
 */
export const RECORD_DOCS = z.registry<{ description: string }>();

/**
 * `schema`, documented. Documents that instance: give a field its own schema, not a shared one such as
 * `nullableString` (the generator refuses one documented instance under two field names).
 */
export function doc<T extends z.ZodMiniType>(description: string, schema: T): T {
  if (RECORD_DOCS.has(schema)) throw new Error(`a schema documented twice: "${description}"`);
  RECORD_DOCS.add(schema, { description });
  return schema;
}

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
