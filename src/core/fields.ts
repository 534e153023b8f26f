import { InputError, UsageError } from '../errors.js';

/**
 * Runs a check of src/contract (whose usage errors say what is wrong with a value it was given a
 * label for) and hands its refusal on as an input error about the core's `field`: the label dropped
 * from the front of the complaint when it is the field's name (it is the error's `field`), its hint
 * kept in brackets.
 */
export function inField<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof UsageError) || error instanceof InputError) throw error;
    const problem = error.message.startsWith(field) ? error.message.slice(field.length).replace(/^:?\s*/, '') : error.message;
    throw new InputError(field, error.hint ? `${problem} (${error.hint})` : problem);
  }
}

/** Core field -> how a face names it (the library's `outputSchema`, the MCP argument `preferred_contact`). */
export type FieldNames = Readonly<Record<string, string>>;

/** An input error of the core renamed for a face; anything else as it is. */
export function renamed(error: unknown, names: FieldNames): unknown {
  if (!(error instanceof InputError) || !Object.hasOwn(names, error.field)) return error;
  return Object.assign(new InputError(names[error.field]!, error.problem), { cause: error.cause });
}

/** Runs a core builder (sync or async), its input errors naming the face's fields. */
export function namedAs<T>(names: FieldNames, build: () => T): T {
  try {
    const value = build();
    if (value instanceof Promise) return value.catch((error: unknown) => Promise.reject(renamed(error, names))) as T;
    return value;
  } catch (error) {
    throw renamed(error, names);
  }
}
