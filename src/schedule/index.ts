// The service's schedule grammar (service-behaviour.md): parse, describe, and compute fire times.
// Public interface shared by the CLI (schedule-preview, persistent) and the emulator.
// (Stub: implementation in progress.)

/** A parsed, valid schedule. */
export type Schedule =
  | { kind: 'shorthand'; expression: string; name: '@yearly' | '@annually' | '@monthly' | '@weekly' | '@daily' | '@hourly'; cron: string }
  | { kind: 'interval'; expression: string; seconds: number }
  | { kind: 'cron'; expression: string; cron: string };

/** A rejected expression, with the message the service would put in `{"schedule": [message]}`. */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}

/** Parses EXPR with the service's grammar; throws ScheduleError with the reason when it is rejected. */
export function parseSchedule(expression: string): Schedule {
  throw new ScheduleError(`not implemented: ${expression}`);
}

/** An English description, e.g. "every day at 00:00 UTC" or "every 1 hour 30 minutes". */
export function describeSchedule(schedule: Schedule): string {
  return schedule.expression;
}

/**
 * The next `count` fire times strictly after `from`. Cron and shorthands are evaluated in UTC (as
 * the service does) unless `timeZone` names an IANA zone; intervals count from `from`.
 * A valid schedule that never fires (`0 0 31 2 *`) gives an empty list.
 */
export function nextFireTimes(schedule: Schedule, from: Date, count: number, options: { timeZone?: string } = {}): Date[] {
  void schedule; void from; void count; void options;
  return [];
}

/** A readable time in an IANA zone with its offset, e.g. `2026-01-15 13:00:00 +01:00`. */
export function formatInZone(date: Date, timeZone: string): string {
  void timeZone;
  return date.toISOString();
}
