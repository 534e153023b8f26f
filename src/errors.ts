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
  /** `tasks result --check-schema`: the result does not match the task's output_schema. */
  schemaMismatch: 9,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];


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
  ) {
    super(message);
    this.name = 'ExitError';
  }
}
