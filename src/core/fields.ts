import { InputError, UsageError } from '../errors.js';

/**
 * Runs a check of src/contract (whose usage errors say what is wrong with a value it was given a
 * label for) and hands its refusal on as an input error about the core's `field`.
 */
export function inField<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof UsageError && !(error instanceof InputError)) throw new InputError(field, error.hint ? `${error.message} (${error.hint})` : error.message);
    throw error;
  }
}
