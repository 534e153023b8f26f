// Time zones through Intl (Node's built-in ICU data), so showing times in a zone costs no dependency.
import { ScheduleError } from './types.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'longOffset',
      });
    } catch {
      throw new ScheduleError(`unknown time zone "${timeZone}"; use an IANA name such as UTC, Europe/Oslo or America/New_York`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Checks an IANA zone name and returns its canonical spelling ("europe/oslo" -> "Europe/Oslo"). */
export function checkTimeZone(timeZone: string): string {
  if (timeZone.trim() === '') throw new ScheduleError('the time zone is empty; use an IANA name such as Europe/Oslo');
  return formatterFor(timeZone).resolvedOptions().timeZone;
}

/** DATE's wall-clock time in TIMEZONE with its UTC offset, e.g. "2026-01-15 13:00:00 +01:00". */
export function formatInZone(date: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  // longOffset reads "GMT+01:00", or a bare "GMT" when the offset is zero.
  const offset = (parts.timeZoneName ?? 'GMT').replace(/^GMT/, '') || '+00:00';
  const year = (parts.year ?? '').padStart(4, '0');
  return `${year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}
