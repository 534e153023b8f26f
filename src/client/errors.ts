import { WaitEndedError } from '../api/errors.js';
import { ExitCode } from '../errors.js';
import type { Task } from './types.js';

/** `tasks.wait` ran out of its `timeoutMs` before the task ended (the task keeps running). */
export class WaitTimeoutError extends WaitEndedError {
  readonly code = 'wait_timed_out';

  constructor(
    readonly taskId: string,
    /** The task as last seen, when the service answered at all. */
    readonly task: Task | undefined,
    readonly timeoutMs: number,
  ) {
    super(`task ${taskId} did not end within ${timeoutMs} ms (last seen ${task?.status ?? 'never'}); it keeps running`, ExitCode.waitTimedOut);
    this.name = 'WaitTimeoutError';
  }
}
