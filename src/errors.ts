// Exit codes fixed by the CLI contract; scripts depend on these numbers.
export const ExitCode = {
  ok: 0,
  serviceError: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  taskFailed: 5,
  taskCancelled: 6,
  waitTimedOut: 7,
  network: 8,
  /** `tasks result` on a task that is still pending or running. */
  notFinished: 9,
  /** `tasks result --check-schema`: the result does not match the task's output_schema. */
  schemaMismatch: 10,
  /** `plan`: the service differs from the agent files (apply has changes to make). */
  changesPending: 11,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, for help pages, the README and `--json` errors. */
export const EXIT_CODE_MEANINGS: Record<ExitCodeValue, { name: string; meaning: string }> = {
  0: { name: 'ok', meaning: 'success (for task waits: the task completed)' },
  1: { name: 'service_error', meaning: 'the service answered with an error not covered below' },
  2: { name: 'usage', meaning: 'usage or input error, found before any request' },
  3: { name: 'auth', meaning: 'authentication failed (missing or invalid API key)' },
  4: { name: 'not_found', meaning: 'record not found' },
  5: { name: 'task_failed', meaning: 'the task ended failed' },
  6: { name: 'task_cancelled', meaning: 'the task ended cancelled' },
  7: { name: 'wait_timed_out', meaning: 'the wait ran out before the task finished' },
  8: { name: 'network', meaning: 'network failure after retries (unreachable, timeout, reset)' },
  9: { name: 'not_finished', meaning: 'the task is still pending or running (no result yet)' },
  10: { name: 'schema_mismatch', meaning: "the result does not match the task's output_schema (tasks result --check-schema)" },
  11: { name: 'changes_pending', meaning: 'the service differs from the agent files: apply has changes to make (plan)' },
  130: { name: 'interrupted', meaning: 'interrupted (Ctrl-C)' },
};


/** An error the user can fix: a bad flag, an invalid file, a limit exceeded. Found before any request. */
export class UsageError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.usage;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Any error that knows which exit code it maps to and how to explain itself in a few lines. */
export interface ExplainedError {
  exitCode: ExitCodeValue;
  message: string;
  hint?: string;
}

export function isExplainedError(error: unknown): error is ExplainedError & Error {
  return error instanceof Error && typeof (error as Partial<ExplainedError>).exitCode === 'number';
}

/** Thrown to end a command with a given exit code after it has already printed what it needed to. */
export class ExitError extends Error {
  constructor(
    readonly exitCode: ExitCodeValue,
    message = '',
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ExitError';
  }
}

/**
 * An input the core operations refused, found before any request. It names the field at fault in the
 * core's own vocabulary (`webhook`, `schedule`, `secrets`, `output_schema`, ...) and says what is wrong
 * without a flag, tool argument or command name: each face words it its own way (the command line
 * says `--webhook`, the MCP server the `webhook` argument, the library hands this error over as is).
 */
export class InputError extends UsageError {
  constructor(
    /** The field at fault, as the core's typed inputs spell it. */
    readonly field: string,
    /** What is wrong with it, as a sentence fragment that reads after the field's name. */
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'InputError';
  }
}
