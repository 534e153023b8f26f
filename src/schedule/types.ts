// Shared shapes of the schedule module, kept apart so the grammar can be used without croner.

/** The service's limit on `schedule`, counted in characters after trimming. */
export const MAX_SCHEDULE_LENGTH = 128;

/** A parsed, valid schedule. */
export type Schedule =
  | { kind: 'shorthand'; expression: string; name: '@yearly' | '@annually' | '@monthly' | '@weekly' | '@daily' | '@hourly'; cron: string }
  | { kind: 'interval'; expression: string; seconds: number }
  | { kind: 'cron'; expression: string; cron: string };

/** A rejected expression, with the message the service would put in `{"schedule": [message]}`. */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}
