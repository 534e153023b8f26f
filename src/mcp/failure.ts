import { ApiError } from '../api/errors.js';
import type { Redactor } from '../api/redact.js';
import { EXIT_CODE_MEANINGS, ExitCode, isExplainedError, type ExitCodeValue } from '../errors.js';
import { InputError } from './tool.js';

/** A failure in the terms of agentctl's exit codes, as a tool error carries it. */
export interface FailureDetails {
  /** The exit code's name: usage, auth, not_found, network, service_error, ... */
  name: string;
  /** The exit code the same failure gives on the command line. */
  exit_code: number;
  meaning: string;
  message: string;
  hint?: string;
  /** The argument at fault (usage errors). */
  field?: string;
  /** The HTTP status the service answered. */
  status?: number;
  /** Rate limited or unavailable: the service asked to wait this long. */
  retry_after_seconds?: number;
  /** When to try again (ISO 8601), with retry_after_seconds. */
  retry_at?: string;
}

/**
 * Any error as a message and its details. Known errors keep their message and hint; anything else
 * is a bug, shown as one line (never a stack). Secrets and the API key are redacted from both.
 */
export function describeFailure(error: unknown, redactor: Redactor): { message: string; error: FailureDetails } {
  const known = isExplainedError(error);
  const code: ExitCodeValue = known ? error.exitCode : ExitCode.serviceError;
  const { name, meaning } = EXIT_CODE_MEANINGS[code] ?? EXIT_CODE_MEANINGS[ExitCode.serviceError];
  const raw = error instanceof Error ? error.message : String(error);
  const details: FailureDetails = {
    name,
    exit_code: code,
    meaning,
    message: redactor.redact(known ? raw : `internal error in agentctl: ${raw.split('\n')[0]}`),
  };
  if (known && error.hint) details.hint = redactor.redact(error.hint);
  if (error instanceof InputError) details.field = error.field;
  if (error instanceof ApiError) {
    details.status = error.status;
    if (error.status === 429) details.name = 'rate_limited';
    if (error.retryAfter) {
      details.retry_after_seconds = Math.ceil(error.retryAfter.ms / 1000);
      details.retry_at = new Date(error.retryAfter.at + error.retryAfter.ms).toISOString();
    }
  }
  const lines = [`${details.name} (exit code ${code}: ${meaning}): ${details.message}`];
  if (details.hint) lines.push(`hint: ${details.hint}`);
  return { message: lines.join('\n'), error: details };
}
