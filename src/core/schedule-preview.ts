// Previewing a schedule offline, as a core operation: the grammar the service accepts, a description
// and the next fire times (UTC). Errors name the field (`expression`, `from`).
import { InputError } from '../errors.js';
import { checkTimeZone, describeSchedule, formatInZone, nextFireTimes, parseSchedule, ScheduleError } from '../schedule/index.js';

/** The local answer, in the contract's JSON shape. */
export interface LocalPreview {
  expression: string;
  valid: true;
  description: string;
  next: string[];
}

/** An ISO 8601 instant (a date at least), or an input error about `field`. */
export function parseInstant(text: string, field = 'from'): Date {
  const date = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(date.getTime())) throw new InputError(field, `"${text}" is not an ISO 8601 instant (e.g. 2026-03-01T09:00:00Z)`);
  return date;
}

/** An IANA time zone name in its canonical spelling, or an input error about `field`. */
export function parseTimeZone(text: string, field = 'timezone'): string {
  try {
    return checkTimeZone(text);
  } catch (error) {
    if (!(error instanceof ScheduleError)) throw error;
    throw new InputError(field, `"${text}" is not a time zone: use an IANA name such as Europe/Oslo, America/New_York or UTC`);
  }
}

/**
 * Fire times (ISO, UTC) as wall-clock times in `timeZone`, and whether the zone's UTC offset differs
 * among them: a schedule runs in UTC, so across a daylight-saving change it fires at another local hour.
 */
export function inZone(next: string[], timeZone: string): { local: string[]; offsetChanges: boolean } {
  const local = next.map((iso) => formatInZone(new Date(iso), timeZone));
  const offsets = new Set(local.map((text) => text.slice(text.lastIndexOf(' ') + 1)));
  return { local, offsetChanges: offsets.size > 1 };
}

/**
 * Checks the expression with the service's grammar and lists its next `count` fire times after
 * `from`. An empty or invalid expression is an input error about `expression`; the refusal of an
 * invalid one has the grammar's error as its `cause`.
 */
export function previewSchedule(expression: string, from: Date, count: number): LocalPreview {
  if (expression.trim() === '') throw new InputError('expression', 'is empty (an empty schedule turns an agent\'s schedule off)');
  try {
    const schedule = parseSchedule(expression);
    return {
      expression,
      valid: true,
      description: describeSchedule(schedule),
      next: nextFireTimes(schedule, from, count).map((date) => date.toISOString()),
    };
  } catch (error) {
    if (!(error instanceof ScheduleError)) throw error;
    throw Object.assign(new InputError('expression', `"${expression}" is not a schedule: ${error.message}`), { cause: error });
  }
}
