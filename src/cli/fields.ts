// The command line's words for the core's input errors: each command names its fields' flags once
// (a table: core field -> flag), and a refusal of the core reads as a refusal of the flag, with the
// command's own hint where it has one.
import { InputError, UsageError } from '../errors.js';

/** Core field -> how the command line names it (`--name`, `--mcp-server`, `the prompt`). */
export type FlagTable = Readonly<Record<string, string>>;

/** Core field -> a hint to add when that field is refused (`check it with: agentctl schedule-preview ...`). */
export type HintTable = Readonly<Record<string, (error: InputError) => string>>;

/** An InputError of the core as the command line says it: the flag, then the problem. */
export function inFlagWords(error: unknown, flags: FlagTable, hints: HintTable = {}): unknown {
  if (!(error instanceof InputError)) return error;
  const flag = flags[error.field];
  const hint = hints[error.field]?.(error) || undefined;
  // A field no flag stands for (the input as a whole: "nothing to update") is said without one.
  return new UsageError(flag === undefined ? error.problem : `${flag} ${error.problem}`, hint);
}

/** Runs a core builder, its input errors worded for the command line. */
export function withFlags<T>(flags: FlagTable, build: () => T, hints?: HintTable): T {
  try {
    return build();
  } catch (error) {
    throw inFlagWords(error, flags, hints);
  }
}
