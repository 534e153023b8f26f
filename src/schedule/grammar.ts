// The service's schedule grammar, ported rule for rule from its code so that agentctl and the
// emulator give the same verdicts and the same words: gobii-platform's
// api/agent/core/schedule_parser.py (ScheduleParser.parse, _parse_interval, _parse_crontab) and
// Celery 5.5.3's celery/schedules.py (crontab.__init__, crontab_parser, _expand_number). Its quirks
// are kept on purpose (names in any field, wrap-around ranges, prefix-matched patterns), and so are
// its crashes: what raises Celery's ParseException or an OverflowError is a 500 there, so it is a
// ScheduleCrash here, not a refusal. Fire times live in next.ts (croner stays off this path).
import { ASCII_DIGITS, PY_SPACE, PY_WORD, pyInt, pyIsDigit, pyRepr, pySplit, pyStrip } from './py.js';
import { ScheduleCrash, ScheduleError, type CronSets, type Schedule } from './types.js';

/** ScheduleParser.SHORTHANDS (case-sensitive), replaced before anything else is looked at. */
export const SHORTHANDS: Readonly<Record<string, string>> = {
  '@annually': '0 0 1 1 *',
  '@yearly': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const UNIT_SECONDS: Readonly<Record<string, bigint>> = { s: 1n, m: 60n, h: 3600n, d: 86_400n };
// timedelta's limit: more days than this is an OverflowError.
const MAX_TIMEDELTA_DAYS = 999_999_999n;
// INTERVAL_REGEX = r"(@every)\s+(.*)", matched at the start; `.` stops at a newline.
const INTERVAL = new RegExp(`^@every[${PY_SPACE}]+([^\\n]*)`, 'u');
const FIVE_PARTS = 'Invalid cron format. Expected 5 parts: (minute hour day_of_month month_of_year day_of_week)';

/**
 * Parses EXPRESSION as ScheduleParser.parse does (after the caller's strip; blank is "no schedule"
 * and is the caller's to handle). Throws ScheduleError with the service's message where it answers
 * 400, ScheduleCrash where it answers 500.
 */
export function parseSchedule(expression: string): Schedule {
  let text = pyStrip(expression);
  if (text === '') throw new ScheduleError(FIVE_PARTS);
  // Own keys only: `valueOf` or `constructor` is no shorthand (an inherited one was "replaced" by a function).
  if (Object.hasOwn(SHORTHANDS, text)) text = SHORTHANDS[text]!;
  if (text === '@reboot') throw new ScheduleError('Unsupported schedule format: @reboot');
  const interval = INTERVAL.exec(text);
  if (interval) return { kind: 'interval', expression, seconds: intervalSeconds(pyStrip(interval[1]!)) };
  return { kind: 'cron', expression, cron: text, sets: parseCrontab(text) };
}

/** checkSchedule's outcomes by expression: a folder of agent files repeats a few schedules (plan, apply). */
const checked = new Map<string, { schedule: Schedule } | { error: unknown }>();
const CHECKED_MOST = 256;

/**
 * Like parseSchedule, but null, undefined and blank mean "no schedule" (disabled) and give null.
 * The outcome of an expression is kept (parsing one costs ~30 us: 1,000 agent files with `@daily`
 * spent a sixth of a plan on it), so the Schedule it gives is shared: read it, never change it.
 */
export function checkSchedule(expression: string | null | undefined): Schedule | null {
  if (expression == null || pyStrip(expression) === '') return null;
  let outcome = checked.get(expression);
  if (outcome === undefined) {
    try {
      outcome = { schedule: parseSchedule(expression) };
    } catch (error) {
      outcome = { error };
    }
    if (checked.size >= CHECKED_MOST) checked.clear();
    checked.set(expression, outcome);
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.schedule;
}

/** _parse_interval: parts like `30m`, digits then one of s m h d; the total must be positive. */
function intervalSeconds(text: string): number {
  let total = 0n;
  for (const part of pySplit(text)) {
    const chars = [...part];
    const unit = chars.pop() ?? '';
    const digits = chars.join('');
    const seconds = Object.hasOwn(UNIT_SECONDS, unit) ? UNIT_SECONDS[unit] : undefined;
    if (!pyIsDigit(digits) || seconds === undefined) throw new ScheduleError(`Invalid interval part: ${part}`);
    const value = pyInt(digits);
    if (value === null) throw new ScheduleError(`invalid literal for int() with base 10: ${pyRepr(digits)}`);
    if ((value * seconds) / 86_400n > MAX_TIMEDELTA_DAYS) throw new ScheduleCrash('OverflowError', `@every part ${part} is longer than Python's timedelta can hold`);
    total += value * seconds;
  }
  if (total <= 0n) throw new ScheduleError('Interval must be positive.');
  // celery_schedule(run_every=total) makes a timedelta of the sum, with the same limit.
  if (total / 86_400n > MAX_TIMEDELTA_DAYS) throw new ScheduleCrash('OverflowError', "the @every interval is longer than Python's timedelta can hold");
  return Number(total);
}

/** _parse_crontab, then crontab(): five parts, expanded hour first, then minute, dow, dom, month. */
function parseCrontab(text: string): CronSets {
  const parts = pySplit(text);
  if (parts.length !== 5) throw new ScheduleError(FIVE_PARTS);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = parts as [string, string, string, string, string];
  const hours = expand(hour, 24, 0);
  const minutes = expand(minute, 60, 0);
  const days = expand(dayOfWeek, 7, 0);
  const dates = expand(dayOfMonth, 31, 1);
  const months = expand(month, 12, 1);
  return { minute: minutes, hour: hours, dayOfMonth: dates, month: months, dayOfWeek: days };
}

// crontab_parser's patterns, tried in order with re.match (a prefix: what follows is ignored).
const RANGE_STEPS = new RegExp(`^(${PY_WORD}+?)-(${PY_WORD}+)/(${PY_WORD}+)?`, 'u');
const RANGE = new RegExp(`^(${PY_WORD}+?)-(${PY_WORD}+)`, 'u');
const STAR_STEPS = new RegExp(`^\\*/(${PY_WORD}+)?`, 'u');

/** crontab_parser(max, min).parse(spec): the sorted values of a comma list. */
function expand(spec: string, max: number, min: number): number[] {
  const values = new Set<number>();
  for (const part of spec.split(',')) {
    if (part === '') throw new ScheduleCrash('ParseException', `an empty item in the comma list "${spec}"`);
    for (const value of expandPart(part, max, min)) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}

function expandPart(part: string, max: number, min: number): number[] {
  // The common parts first: none of the patterns below matches them, and their Unicode classes cost
  // milliseconds to compile on first use.
  if (part === '*') return star(max, min);
  if (ASCII_DIGITS.test(part)) return [expandNumber(part, max, min)];
  let match = RANGE_STEPS.exec(part);
  if (match) {
    if (match[3] === undefined) throw new ScheduleCrash('ParseException', `an empty step after "/" in "${part}"`);
    return stepped(expandRange(match[1]!, match[2]!, max, min), match[3]);
  }
  match = RANGE.exec(part);
  if (match) return expandRange(match[1]!, match[2]!, max, min);
  match = STAR_STEPS.exec(part);
  if (match) {
    if (match[1] === undefined) throw new ScheduleCrash('ParseException', `an empty step after "/" in "${part}"`);
    return stepped(star(max, min), match[1]);
  }
  if (part === '*') return star(max, min);
  return [expandNumber(part, max, min)];
}

function star(max: number, min: number): number[] {
  return Array.from({ length: max }, (_, index) => min + index);
}

/** _expand_range: low-high, wrapping past the field's end when high < low (`fri-mon`, `50-10`). */
function expandRange(fromText: string, toText: string, max: number, min: number): number[] {
  const from = expandNumber(fromText, max, min);
  const to = expandNumber(toText, max, min);
  if (to >= from) return Array.from({ length: to - from + 1 }, (_, index) => from + index);
  const tail = Array.from({ length: min + max - from }, (_, index) => from + index);
  return [...tail, ...Array.from({ length: to - min + 1 }, (_, index) => min + index)];
}

/** `values[::int(step)]`: Python's int() and its refusal of a zero step. */
function stepped(values: number[], stepText: string): number[] {
  const step = pyInt(stepText);
  if (step === null) throw new ScheduleError(`invalid literal for int() with base 10: ${pyRepr(stepText)}`);
  if (step === 0n) throw new ScheduleError('slice step cannot be zero');
  // A word pattern holds no sign, so the step is positive; past the list's length it keeps the first.
  const every = step > BigInt(values.length) ? values.length || 1 : Number(step);
  return values.filter((_, index) => index % every === 0);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * _expand_number: int(), else a month name, else a day name (their first three letters, any case,
 * in any field: `0 mon * * *` is hour 1), then the field's bounds.
 */
function expandNumber(text: string, max: number, min: number): number {
  if (text.startsWith('-')) throw new ScheduleCrash('ParseException', `a negative number ("${text}")`);
  let value = pyInt(text);
  if (value === null) {
    const prefix = [...text].slice(0, 3).join('').toLowerCase();
    const month = MONTHS.indexOf(prefix);
    const day = DAYS.indexOf(prefix);
    if (month >= 0) value = BigInt(month + 1);
    else if (day >= 0) value = BigInt(day);
    else throw new ScheduleError(`Invalid weekday literal ${pyRepr(text)}.`);
  }
  const last = BigInt(min + max - 1);
  if (value > last) throw new ScheduleError(`Invalid end range: ${value} > ${last}.`);
  if (value < BigInt(min)) throw new ScheduleError(`Invalid beginning range: ${value} < ${min}.`);
  return Number(value);
}

// The longest each month can be (February in a leap year).
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a crontab can never match a day. Only day-of-month against month can rule every day out:
 * the Gregorian calendar repeats every 400 years (a whole number of weeks), and in that cycle every
 * date, February 29 included, falls on each day of the week, so the AND with day-of-week only delays
 * the first match (`0 0 29 2 1` next fires in 2044) and never empties it. (Celery gives up on such a
 * crontab with a RuntimeError after 2,000 tries.)
 */
export function neverFires(sets: CronSets): boolean {
  const firstDay = sets.dayOfMonth[0] ?? 32;
  return !sets.month.some((value) => firstDay <= (DAYS_IN_MONTH[value - 1] ?? 0));
}
