// Fire times. Intervals are plain arithmetic; cron arithmetic (calendar, time zones, DST) is left to
// croner, which is only ever handed each field's values as Celery expanded them (wrap-arounds and
// names already resolved), with its day-of-month/day-of-week AND mode switched on: Celery's crontab
// fires only on a day that matches both (crontab.remaining_delta, _delta_to_next).
import { Cron } from 'croner';
import { neverFires } from './grammar.js';
import { ScheduleError, type Schedule } from './types.js';
import { checkTimeZone } from './zone.js';

/**
 * The next `count` fire times strictly after `from`. Cron and shorthands are evaluated in UTC (as
 * the service does) unless `timeZone` names an IANA zone; intervals count from `from`.
 * A valid schedule that never fires (`0 0 31 2 *`) gives an empty list.
 *
 * In a zone with daylight saving time, a schedule whose minute and hour fields have no `*` or step
 * (`30 2 * * *`, `0 2,14 * * *`) is a fixed-time job: when the local time does not exist (spring
 * forward) it fires at the first valid time after the gap, and when it occurs twice (fall back) it
 * fires once, at the first occurrence. Other schedules (`*\/30 2 * * *`) skip the missing times and
 * fire at both occurrences of repeated ones, like classic cron.
 */
const MAX_DATE_MS = 8.64e15;

/** croner finds no cron fire time after this year. */
export const LAST_SEARCHED_YEAR = 2999;

export function nextFireTimes(schedule: Schedule, from: Date, count: number, options: { timeZone?: string } = {}): Date[] {
  if (Number.isNaN(from.getTime())) throw new RangeError('nextFireTimes: `from` is not a valid date');
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError(`nextFireTimes: count must be a whole number >= 0, got ${count}`);
  }
  const timeZone = options.timeZone === undefined ? 'UTC' : checkTimeZone(options.timeZone);
  if (count === 0) return [];
  if (schedule.kind === 'interval') {
    const step = schedule.seconds * 1000;
    const times: Date[] = [];
    // A huge interval (`@every 100000000d`) runs past the last date JavaScript can hold: stop there.
    for (let index = 1; index <= count && from.getTime() + index * step <= MAX_DATE_MS; index++) {
      times.push(new Date(from.getTime() + index * step));
    }
    return times;
  }
  const { sets } = schedule;
  // Checked here rather than left to croner, which would search to the year 10000 before giving up.
  if (neverFires(sets)) return [];
  const pattern = [starStep(sets.minute, 59), starStep(sets.hour, 23), sets.dayOfMonth.join(','), sets.month.join(','), sets.dayOfWeek.join(',')].join(' ');
  const job = new Cron(pattern, {
    // UTC as a fixed offset: a time zone makes croner convert every candidate time through
    // Intl.DateTimeFormat, whose first use loads ICU's zone data (~10-30 ms of a run).
    ...(timeZone === 'UTC' ? { utcOffset: 0 } : { timezone: timeZone }),
    mode: '5-part',
    domAndDow: true,
    fixedTimeRule: 'no-wildcard',
    paused: true,
  });
  try {
    return job.nextRuns(count, from);
  } catch (error) {
    // croner throws on times it cannot represent; it also stops searching at the year 3000, so a list
    // may be shorter than `count` (callers say so: see LAST_SEARCHED_YEAR).
    throw new ScheduleError(`cannot compute fire times after ${from.toISOString()}: ${(error as Error).message}`);
  }
}

/**
 * A minute or hour field's values as `*` or `*\/n` when they are exactly that, else a list: croner
 * treats a job with a wildcard or step there as a repeating one across daylight-saving changes (see
 * nextFireTimes), a list of exact times as a fixed-time one.
 */
function starStep(values: readonly number[], max: number): string {
  const step = values.length > 1 ? values[1]! - values[0]! : max + 1;
  const isStarStep = values[0] === 0 && values.every((value, index) => value === index * step) && values[values.length - 1]! + step > max;
  if (!isStarStep) return values.join(',');
  return step === 1 ? '*' : `*/${step}`;
}
