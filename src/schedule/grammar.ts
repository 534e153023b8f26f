// The service's schedule grammar (docs/service-behaviour.md, "Persistent agents"): shorthands, `@every`
// intervals and five-field cron. It only accepts and rejects; fire times live in next.ts, so code
// that just validates (agents create/update) can import this file without pulling in croner.
import { MAX_SCHEDULE_LENGTH, ScheduleError, type Schedule } from './types.js';

type ShorthandName = Extract<Schedule, { kind: 'shorthand' }>['name'];

/** The shorthands the service accepts (case-sensitive), and the cron each stands for. */
export const SHORTHANDS: Readonly<Record<ShorthandName, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@hourly': '0 * * * *',
};

// Classic cron shorthands the service turns away, with what to use instead.
const REFUSED_SHORTHANDS: Readonly<Record<string, string>> = {
  '@midnight': '@midnight is not supported; use @daily (00:00 UTC)',
  '@reboot': '@reboot is not supported; agents run on a schedule, not at start-up',
};

export type IntervalUnit = 's' | 'm' | 'h' | 'd';
export const UNIT_SECONDS: Readonly<Record<IntervalUnit, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

export interface IntervalPart {
  amount: number;
  unit: IntervalUnit;
}

export type CronFieldName = 'minute' | 'hour' | 'day-of-month' | 'month' | 'day-of-week';

export interface FieldSpec {
  name: CronFieldName;
  min: number;
  max: number;
}

export const FIELD_SPECS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day-of-week', min: 0, max: 6 },
];

/** One comma-separated item of a cron field; `open` steps (`a/n`) run from a to the field's max. */
export type CronItem =
  | { kind: 'any' }
  | { kind: 'value'; value: number }
  | { kind: 'range'; from: number; to: number }
  | { kind: 'step'; from: number; to: number; step: number; start: 'any' | 'range' | 'open' };

export interface CronField {
  spec: FieldSpec;
  /** The field as written. */
  text: string;
  items: CronItem[];
  /** Every value the field allows, ascending. */
  values: number[];
  /** Whether the field is unrestricted (`*`, `*\/1`, or a list covering its whole range). */
  any: boolean;
}

export interface CronFields {
  minute: CronField;
  hour: CronField;
  dayOfMonth: CronField;
  month: CronField;
  dayOfWeek: CronField;
}

export const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const FULL_DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const FULL_MONTH_NAMES = [
  'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
];

const FIELD_LIST = 'minute hour day-of-month month day-of-week';

/**
 * Parses EXPRESSION with the service's grammar; throws ScheduleError with the reason when it is
 * rejected. Leading and trailing whitespace is ignored; a blank expression is rejected here (callers
 * that treat blank as "disabled" should use checkSchedule).
 */
export function parseSchedule(expression: string): Schedule {
  const text = expression.trim();
  if (text === '') throw new ScheduleError('the schedule is empty (a blank schedule disables it)');
  // The service counts characters (code points) after trimming, as its form field does.
  const length = [...text].length;
  if (length > MAX_SCHEDULE_LENGTH) {
    throw new ScheduleError(`the schedule is ${length} characters long; the limit is ${MAX_SCHEDULE_LENGTH}`);
  }
  if (text.startsWith('@')) return parseAtExpression(text);
  return { kind: 'cron', expression: text, cron: parseCronFields(text).map((field) => field.text).join(' ') };
}

/** Like parseSchedule, but null, undefined and blank mean "no schedule" (disabled) and give null. */
export function checkSchedule(expression: string | null | undefined): Schedule | null {
  if (expression == null || expression.trim() === '') return null;
  return parseSchedule(expression);
}

function parseAtExpression(text: string): Schedule {
  const [word = '', ...rest] = text.split(/\s+/);
  if (word === '@every') {
    const parts = parseIntervalParts(rest);
    const seconds = parts.reduce((total, part) => total + part.amount * UNIT_SECONDS[part.unit], 0);
    if (!Number.isSafeInteger(seconds)) throw new ScheduleError('the @every interval is too long');
    if (seconds === 0) throw new ScheduleError('the @every interval must be longer than 0 seconds');
    return { kind: 'interval', expression: text, seconds };
  }
  if (Object.hasOwn(SHORTHANDS, word)) {
    if (rest.length > 0) throw new ScheduleError(`${word} takes nothing after it, got "${rest.join(' ')}"`);
    const name = word as ShorthandName;
    return { kind: 'shorthand', expression: text, name, cron: SHORTHANDS[name] };
  }
  const refused = REFUSED_SHORTHANDS[word];
  if (refused !== undefined) throw new ScheduleError(refused);
  const known = [...Object.keys(SHORTHANDS), '@every'];
  const sameLetters = known.find((name) => name.toLowerCase() === word.toLowerCase());
  if (sameLetters !== undefined) {
    throw new ScheduleError(`unknown shorthand "${word}": shorthands are lowercase, use "${sameLetters}"`);
  }
  throw new ScheduleError(
    `unknown shorthand "${word}"; use @yearly, @annually, @monthly, @weekly, @daily, @hourly or @every <interval>`,
  );
}

/**
 * The `<n><unit>` parts after `@every` (already split on whitespace), e.g. ["1h", "30m"]. Units are
 * lowercase s, m, h, d; amounts are whole numbers; a repeated unit adds up (`@every 1h 1h` is 2h).
 */
export function parseIntervalParts(parts: readonly string[]): IntervalPart[] {
  if (parts.length === 0) throw new ScheduleError('@every needs an interval, e.g. "@every 1h 30m" or "@every 90s"');
  return parts.map((part) => {
    const match = /^(\d+)([smhd])$/.exec(part);
    if (match) return { amount: Number(match[1]), unit: match[2] as IntervalUnit };
    throw new ScheduleError(intervalPartProblem(part));
  });
}

function intervalPartProblem(part: string): string {
  if (/^(\d+[smhd]){2,}$/.test(part)) {
    const spaced = part.match(/\d+[smhd]/g)?.join(' ') ?? part;
    return `@every parts need a space between them: "${spaced}"`;
  }
  if (/^\d+$/.test(part)) return `@every part "${part}" needs a unit: s, m, h or d (e.g. "${part}m")`;
  if (part.startsWith('-')) return `@every does not accept negative amounts ("${part}")`;
  if (/^\d*[.,]\d+[a-zA-Z]*$/.test(part)) {
    return `@every amounts are whole numbers ("${part}"); combine units instead, e.g. "1h 30m" rather than "1.5h"`;
  }
  if (/^\d+[SMHD]$/.test(part)) return `@every units are lowercase: "${part.toLowerCase()}", not "${part}"`;
  const unit = /^\d+([a-zA-Z]+)$/.exec(part)?.[1];
  if (unit !== undefined) return `@every unit "${unit}" in "${part}" is not supported; use s, m, h or d`;
  return `invalid @every part "${part}": expected a whole number and a unit (s, m, h or d), e.g. "30m"`;
}

/** Splits and checks a five-field cron expression (minute hour day-of-month month day-of-week). */
export function parseCronFields(cron: string): CronField[] {
  const texts = cron.trim().split(/\s+/);
  if (texts.length !== FIELD_SPECS.length) throw new ScheduleError(fieldCountProblem(cron, texts));
  return FIELD_SPECS.map((spec, index) => parseField(texts[index] ?? '', spec));
}

/** The parsed fields by name, for readers that want them one by one. */
export function cronFieldsByName(cron: string): CronFields {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = parseCronFields(cron) as [
    CronField, CronField, CronField, CronField, CronField,
  ];
  return { minute, hour, dayOfMonth, month, dayOfWeek };
}

function fieldCountProblem(cron: string, texts: string[]): string {
  let message = `expected 5 fields (${FIELD_LIST}), got ${texts.length}`;
  if (/,\s|\s,/.test(cron)) message += '; list items are separated by commas without spaces, e.g. "1,15"';
  else if (texts.length === 6 || texts.length === 7) message += '; seconds and year fields are not supported';
  else if (/^(every|yearly|annually|monthly|weekly|daily|hourly)$/i.test(texts[0] ?? '')) {
    message += `; did you mean "@${(texts[0] ?? '').toLowerCase()}"?`;
  }
  return message;
}

function parseField(text: string, spec: FieldSpec): CronField {
  const items = text.split(',').map((item) => {
    if (item === '') throw new ScheduleError(`${spec.name} field "${text}" has an empty list item`);
    return parseItem(item, spec);
  });
  const allowed = new Set<number>();
  for (const item of items) for (const value of itemValues(item, spec)) allowed.add(value);
  const values = [...allowed].sort((a, b) => a - b);
  return { spec, text, items, values, any: values.length === spec.max - spec.min + 1 };
}

function itemValues(item: CronItem, spec: FieldSpec): number[] {
  switch (item.kind) {
    case 'any':
      return range(spec.min, spec.max, 1);
    case 'value':
      return [item.value];
    case 'range':
      return range(item.from, item.to, 1);
    case 'step':
      return range(item.from, item.to, item.step);
  }
}

function range(from: number, to: number, step: number): number[] {
  const values: number[] = [];
  for (let value = from; value <= to; value += step) values.push(value);
  return values;
}

function parseItem(item: string, spec: FieldSpec): CronItem {
  const slashes = item.split('/');
  if (slashes.length > 2) throw new ScheduleError(`${spec.name} item "${item}" has more than one "/"`);
  const [base = '', stepText] = slashes;
  if (stepText === undefined) {
    if (base === '*') return { kind: 'any' };
    if (base.includes('-')) {
      const [from, to] = parseRange(base, item, spec);
      return { kind: 'range', from, to };
    }
    return { kind: 'value', value: parseAtom(base, item, spec) };
  }
  if (base === '') throw new ScheduleError(`${spec.name} step "${item}" needs a start, e.g. "*/${stepText}"`);
  const step = parseStep(stepText, item, spec);
  if (base === '*') return { kind: 'step', from: spec.min, to: spec.max, step, start: 'any' };
  if (base.includes('-')) {
    const [from, to] = parseRange(base, item, spec);
    return { kind: 'step', from, to, step, start: 'range' };
  }
  return { kind: 'step', from: parseAtom(base, item, spec), to: spec.max, step, start: 'open' };
}

function parseRange(base: string, item: string, spec: FieldSpec): [number, number] {
  const ends = base.split('-');
  const [fromText = '', toText = ''] = ends;
  if (ends.length !== 2 || fromText === '' || toText === '') {
    if (/^-\d+$/.test(base)) throw new ScheduleError(`${spec.name} values cannot be negative ("${item}")`);
    throw new ScheduleError(`${spec.name} range "${base}" is not valid; write it as low-high, e.g. "1-5"`);
  }
  const from = parseAtom(fromText, item, spec);
  const to = parseAtom(toText, item, spec);
  if (from > to) {
    throw new ScheduleError(`${spec.name} range ${base} is reversed; ranges go from low to high and do not wrap`);
  }
  return [from, to];
}

function parseStep(stepText: string, item: string, spec: FieldSpec): number {
  if (stepText === '') throw new ScheduleError(`${spec.name} step is missing after "/" in "${item}"`);
  if (!/^\d+$/.test(stepText)) {
    throw new ScheduleError(`${spec.name} step "${stepText}" in "${item}" is not a whole number`);
  }
  const step = Number(stepText);
  if (step === 0) throw new ScheduleError(`${spec.name} step 0 in "${item}" is not allowed; steps start at 1`);
  const size = spec.max - spec.min + 1;
  if (step > size) {
    // A step larger than the field can only ever hit its start; usually an interval was meant.
    let hint = '';
    if (spec.name === 'minute') hint = `; cron steps restart every hour, for every ${step} minutes use "@every ${step}m"`;
    if (spec.name === 'hour') hint = `; cron steps restart every day, for every ${step} hours use "@every ${step}h"`;
    throw new ScheduleError(`${spec.name} step ${step} in "${item}" is larger than the field's ${size} values${hint}`);
  }
  return step;
}

/** A single number or (day-of-week only) a three-letter day name. */
function parseAtom(atom: string, item: string, spec: FieldSpec): number {
  if (/^\d+$/.test(atom)) {
    const value = Number(atom);
    if (value < spec.min || value > spec.max) {
      const hint = spec.name === 'day-of-week' && value === 7 ? ' (use 0 for Sunday)' : '';
      throw new ScheduleError(`${spec.name} value ${atom} is out of range ${spec.min}-${spec.max}${hint}`);
    }
    return value;
  }
  const lower = atom.toLowerCase();
  const day = (DAY_NAMES as readonly string[]).indexOf(lower);
  if (day >= 0) {
    if (spec.name === 'day-of-week') return day;
    throw new ScheduleError(`day names like "${atom}" are only allowed in the day-of-week field, not in ${spec.name}`);
  }
  if (MONTH_NAMES.includes(lower) || FULL_MONTH_NAMES.includes(lower)) {
    if (spec.name === 'month') throw new ScheduleError(`month names are not supported; use 1-12 ("${atom}")`);
    if (spec.name === 'day-of-week') {
      throw new ScheduleError(`"${atom}" is not a day of the week; use ${DAY_NAMES.join(', ')} or 0-6`);
    }
    throw new ScheduleError(`"${atom}" is not a valid ${spec.name} value`);
  }
  const fullDay = FULL_DAY_NAMES.indexOf(lower);
  if (fullDay >= 0 && spec.name === 'day-of-week') {
    throw new ScheduleError(`day-of-week names are three letters: use "${DAY_NAMES[fullDay]}", not "${atom}"`);
  }
  throw new ScheduleError(unsupportedProblem(atom, item, spec));
}

// Extensions of other cron dialects get a message naming them; anything else a generic one.
function unsupportedProblem(atom: string, item: string, spec: FieldSpec): string {
  if (atom.includes('?')) return `"?" is not supported (in ${spec.name}); use *`;
  if (atom.includes('#')) return `"#" (nth weekday of the month) is not supported ("${item}" in ${spec.name})`;
  if (/^\d*L$/i.test(atom) || /^LW$/i.test(atom)) {
    return `"L" (last) is not supported ("${item}" in ${spec.name})`;
  }
  if (/^\d+W$/i.test(atom)) return `"W" (nearest weekday) is not supported ("${item}" in ${spec.name})`;
  if (atom.startsWith('-')) return `${spec.name} values cannot be negative ("${item}")`;
  const names = spec.name === 'day-of-week' ? ', a day name like mon' : '';
  return `invalid ${spec.name} "${item}": expected *, a number${names}, a range like 1-5, a step like */15, or a comma list of those`;
}

// The longest each month can be (February in a leap year).
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether valid cron fields can never match a day. Only day-of-month against month can rule every
 * day out: the Gregorian calendar repeats every 400 years (a whole number of weeks), and in that
 * cycle every date, February 29 included, falls on each day of the week, so the AND with
 * day-of-week only delays the first match (`0 0 29 2 1` next fires in 2044) and never empties it.
 */
export function neverFires(fields: readonly CronField[]): boolean {
  const [, , dayOfMonth, month] = fields;
  if (dayOfMonth === undefined || month === undefined) return false;
  const firstDay = dayOfMonth.values[0] ?? 32;
  return !month.values.some((value) => firstDay <= (DAYS_IN_MONTH[value - 1] ?? 0));
}
