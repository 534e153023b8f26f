// The service tools' checks (src/core) worded for the command line: an InputError of a field becomes
// a usage error naming its flag or argument (exit 2, before any request).
import type { ArgumentSpec } from '../../cli/define.js';
import { InputError, UsageError } from '../../errors.js';

/** Runs `check` (or awaits it); an InputError of a field in `words` is said with that word (`--window-hours`, `FILE`). */
export function inFlagWords<T>(words: Record<string, string>, check: () => T): T {
  const reword = (error: unknown): never => {
    const word = error instanceof InputError ? words[error.field] : undefined;
    if (word === undefined) throw error;
    throw new UsageError(`${word} ${(error as InputError).problem}`, (error as InputError).hint);
  };
  try {
    const value = check();
    return (value instanceof Promise ? value.catch(reword) : value) as T;
  } catch (error) {
    return reword(error);
  }
}

/** A whole-number flag, or undefined when not given; its bounds are the core's to check. */
export function wholeNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${flag} "${value}" is not a whole number`);
  return Number(value.trim());
}

export const PEER_ARG: ArgumentSpec = { name: '<peer>', description: 'the other agent (UUID)' };
export const PEER = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
