// Times as the service writes them. The emulator's clock counts milliseconds; Python's datetime
// counts microseconds, and its isoformat() leaves them out when they are zero.

/** DRF's DateTimeField (and console/agent_chat/timeline.py _format_timestamp): isoformat() with `Z` for +00:00. */
export function drfTimestamp(ms: number): string {
  return `${isoSeconds(ms)}${fraction(ms)}Z`;
}

/** datetime.isoformat() of an aware UTC time: `+00:00`. */
export function pythonIsoFormat(ms: number): string {
  return `${isoSeconds(ms)}${fraction(ms)}+00:00`;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const fraction = (ms: number) => (((ms % 1000) + 1000) % 1000 === 0 ? '' : `.${new Date(ms).toISOString().slice(20, 23)}000`);

const NBSP = '\u00a0';
const plural = (count: number, one: string, many: string) => (count === 1 ? one : `${count}${NBSP}${many}`);

/**
 * Django's naturaltime (django/contrib/humanize/templatetags/humanize.py NaturalTimeFormatter) of a
 * past time, as timeline.py _relative_timestamp calls it: "now" under a second, then seconds,
 * minutes, hours, and past a day timesince's two largest units (a non-breaking space between
 * count and unit); a time after `now` is "moments ago".
 */
export function naturalTime(ms: number, nowMs: number): string {
  if (ms > nowMs) return 'moments ago';
  const seconds = Math.floor((nowMs - ms) / 1000);
  if (seconds >= 86_400) return `${timeSince(ms, nowMs)} ago`;
  if (seconds === 0) return 'now';
  if (seconds < 60) return plural(seconds, 'a second ago', 'seconds ago');
  if (seconds < 3600) return plural(Math.floor(seconds / 60), 'a minute ago', 'minutes ago');
  return plural(Math.floor(seconds / 3600), 'an hour ago', 'hours ago');
}

const UNITS = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
] as const;

/** django.utils.timesince.timesince (Django 3.2's fixed-length units): the largest unit and the next when not zero. */
function timeSince(ms: number, nowMs: number): string {
  const since = Math.floor((nowMs - ms) / 1000);
  const index = UNITS.findIndex(([, size]) => since >= size);
  const [unit, size] = UNITS[index] as (typeof UNITS)[number];
  const count = Math.floor(since / size);
  const parts = [`${count}${NBSP}${unit}${count === 1 ? '' : 's'}`];
  const next = UNITS[index + 1];
  if (next) {
    const rest = Math.floor((since - count * size) / next[1]);
    if (rest !== 0) parts.push(`${rest}${NBSP}${next[0]}${rest === 1 ? '' : 's'}`);
  }
  return parts.join(', ');
}
