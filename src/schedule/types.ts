// Shared shapes of the schedule module, kept apart so the grammar can be used without croner.

/** The service's limit on `schedule` when an agent is saved, counted in characters after trimming. */
export const MAX_SCHEDULE_LENGTH = 128;

/** Each cron field's values, ascending, as Celery's crontab expands them. */
export interface CronSets {
  minute: number[];
  hour: number[];
  dayOfMonth: number[];
  month: number[];
  dayOfWeek: number[];
}

/** A schedule the service accepts: `expression` as written, `cron` the five fields (shorthands replaced). */
export type Schedule =
  | { kind: 'interval'; expression: string; seconds: number }
  | { kind: 'cron'; expression: string; cron: string; sets: CronSets };

/** A refused expression, with the message the service puts in `{"schedule": [message]}` (a 400). */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}

/**
 * An expression the service neither accepts nor refuses: its parser raises an exception no handler
 * expects (Celery's ParseException, Python's OverflowError) and the request ends in a 500.
 */
export class ScheduleCrash extends Error {
  override readonly name = 'ScheduleCrash';
  constructor(
    /** The Python exception the service raises. */
    readonly exception: 'ParseException' | 'OverflowError',
    /** What in the expression causes it, in words. */
    readonly reason: string,
  ) {
    super(`the service answers this schedule with 500 Internal Server Error (its parser raises ${exception}: ${reason})`);
  }
}
