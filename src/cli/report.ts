import { ExitCode, isExplainedError, type ExitCodeValue } from '../errors.js';
import type { Redactor } from '../api/redact.js';

/**
 * Turns any error into a few readable lines on stderr and the exit code of the contract.
 * Stack traces are for bugs only (and then with a request to report it).
 */
export function reportError(error: unknown, redactor: Redactor | undefined, write: (text: string) => unknown): ExitCodeValue {
  const clean = (text: string) => (redactor ? redactor.redact(text) : text);
  if (isExplainedError(error)) {
    if (error.message) write(`error: ${clean(error.message)}\n`);
    if (error.hint) write(`hint: ${clean(error.hint)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  write(`error: unexpected failure (this is a bug in agentctl; please report it):\n${clean(message)}\n`);
  return ExitCode.serviceError;
}
