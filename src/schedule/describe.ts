// English descriptions of schedules, for schedule-preview and the emulator's preview route. The
// common shapes get a natural sentence; anything else is described field by field, which is
// clumsier but still correct.
import {
  cronFieldsByName, neverFires, parseIntervalParts, type CronField, type CronItem, type IntervalUnit,
} from './grammar.js';
import type { Schedule } from './types.js';

const UNIT_NAMES: Readonly<Record<IntervalUnit, string>> = { d: 'day', h: 'hour', m: 'minute', s: 'second' };
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];
// More exact times than this read better as "at minutes ... past hours ...".
const MAX_LISTED_TIMES = 6;

/** An English description, e.g. "every day at 00:00 UTC" or "every 1 hour 30 minutes". */
export function describeSchedule(schedule: Schedule): string {
  if (schedule.kind === 'interval') return describeInterval(schedule.expression);
  return describeCron(schedule.cron);
}

function describeInterval(expression: string): string {
  const totals = new Map<IntervalUnit, number>();
  for (const part of parseIntervalParts(expression.trim().split(/\s+/).slice(1))) {
    totals.set(part.unit, (totals.get(part.unit) ?? 0) + part.amount);
  }
  // Parts as written ("@every 90s" stays "90 seconds"), largest unit first, repeats added up.
  const parts = (['d', 'h', 'm', 's'] as const)
    .map((unit) => ({ unit, amount: totals.get(unit) ?? 0 }))
    .filter((part) => part.amount > 0);
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && only.amount === 1) return `every ${UNIT_NAMES[only.unit]}`;
  return `every ${parts.map((part) => quantity(part.amount, UNIT_NAMES[part.unit])).join(' ')}`;
}

function describeCron(cron: string): string {
  const fields = cronFieldsByName(cron);
  const time = timePhrase(fields.minute, fields.hour);
  const date = datePhrase(fields.dayOfMonth, fields.month, fields.dayOfWeek);
  let text: string;
  if (date === null) text = time.fixed ? `every day ${time.text}` : time.text;
  else text = `${time.text} ${date}`;
  const { minute, hour, dayOfMonth, month, dayOfWeek } = fields;
  return neverFires([minute, hour, dayOfMonth, month, dayOfWeek]) ? `${text} (never fires)` : text;
}

/** The time of day; `fixed` when it names exact times ("at 09:30 UTC"). */
function timePhrase(minute: CronField, hour: CronField): { text: string; fixed: boolean } {
  const minuteValues = onlyValues(minute);
  const hourValues = onlyValues(hour);
  if (minuteValues && hourValues && minute.values.length * hour.values.length <= MAX_LISTED_TIMES) {
    const times = hour.values.flatMap((h) => minute.values.map((m) => `${pad(h)}:${pad(m)}`));
    return { text: `at ${listJoin(times, 'and')} UTC`, fixed: true };
  }
  const hours = hour.any ? null : hourPhrase(hour);
  if (minuteValues) {
    const minutes = `${minute.values.length === 1 ? 'minute' : 'minutes'} ${listJoin(minute.values.map(String), 'and')}`;
    return { text: hours === null ? `every hour at ${minutes}` : `at ${minutes} past ${hours}`, fixed: false };
  }
  const step = singleStep(minute);
  if (step !== null) {
    const every = step.step === 1 ? 'every minute' : `every ${step.step} minutes`;
    if (step.whole) return { text: hours === null ? every : `${every} during ${hours}`, fixed: false };
    const span = `${every} from minute ${step.from} through ${step.to}`;
    return { text: `${span} of ${hours ?? 'each hour'}`, fixed: false };
  }
  const minutes = fieldPhrase(minute, 'minute', String);
  return { text: `at ${minutes} past ${hours ?? 'every hour'}`, fixed: false };
}

function hourPhrase(hour: CronField): string {
  const phrase = fieldPhrase(hour, 'hour', String);
  // Hours are UTC wall-clock hours; say so whenever the phrase names one.
  return hour.items.some((item) => item.kind !== 'step' || item.start !== 'any') ? `${phrase} UTC` : phrase;
}

/** The days: null when every day matches. */
function datePhrase(dayOfMonth: CronField, month: CronField, dayOfWeek: CronField): string | null {
  const months = month.any ? null : namedValues(month.values, MONTHS, 'and');
  if (dayOfMonth.any) {
    if (dayOfWeek.any) return months === null ? null : `every day in ${months}`;
    const days = `on ${namedValues(dayOfWeek.values, DAYS, 'and')}`;
    return months === null ? days : `${days} in ${months}`;
  }
  const onDays = `on ${fieldPhrase(dayOfMonth, 'day', String)} of ${months ?? 'the month'}`;
  if (dayOfWeek.any) return onDays;
  // The service ANDs the two day fields (classic cron ORs them); spell that out.
  const [onlyDay] = dayOfWeek.values;
  if (dayOfWeek.values.length === 1 && onlyDay !== undefined) return `${onDays}, only if it is a ${DAYS[onlyDay]}`;
  return `${onDays}, only if it falls on ${namedValues(dayOfWeek.values, DAYS, 'or')}`;
}

/** A field's items in words, e.g. "minutes 0 and 30", "hours 9 through 17", "every 2nd hour". */
function fieldPhrase(field: CronField, noun: string, label: (value: number) => string): string {
  const plain: string[] = [];
  const steps: string[] = [];
  let plainCount = 0;
  for (const item of field.items) {
    const phrase = itemPhrase(item, field, noun, label);
    if (item.kind === 'value' || item.kind === 'range' || item.kind === 'any') {
      plain.push(phrase);
      plainCount += item.kind === 'value' ? 1 : 2;
    } else {
      steps.push(phrase);
    }
  }
  // With steps after them, the plain items stay one comma list: "minutes 1, 3 through 5 and every 20th minute".
  const plainList = steps.length === 0 ? listJoin(plain, 'and') : plain.join(', ');
  const phrases = plain.length === 0 ? [] : [`${plainCount === 1 ? noun : `${noun}s`} ${plainList}`];
  return listJoin([...phrases, ...steps], 'and');
}

function itemPhrase(item: CronItem, field: CronField, noun: string, label: (value: number) => string): string {
  switch (item.kind) {
    case 'any':
      return `${label(field.spec.min)} through ${label(field.spec.max)}`;
    case 'value':
      return label(item.value);
    case 'range':
      return `${label(item.from)} through ${label(item.to)}`;
    case 'step': {
      const every = item.step === 1 ? `every ${noun}` : `every ${ordinal(item.step)} ${noun}`;
      return item.start === 'any' ? every : `${every} from ${label(item.from)} through ${label(item.to)}`;
    }
  }
}

/** Values as names, with runs of three or more as ranges: "Monday through Friday", "Sunday and Saturday". */
function namedValues(values: readonly number[], names: readonly string[], conjunction: 'and' | 'or'): string {
  const offset = names === MONTHS ? 1 : 0;
  const name = (value: number): string => names[value - offset] ?? String(value);
  const runs: string[] = [];
  for (let index = 0; index < values.length; ) {
    let end = index;
    while (end + 1 < values.length && values[end + 1] === values[end]! + 1) end++;
    if (end - index >= 2) runs.push(`${name(values[index]!)} through ${name(values[end]!)}`);
    else for (let each = index; each <= end; each++) runs.push(name(values[each]!));
    index = end + 1;
  }
  return listJoin(runs, conjunction);
}

/** The field's values when it is written as plain numbers only ("5", "0,30"). */
function onlyValues(field: CronField): boolean {
  return field.items.every((item) => item.kind === 'value');
}

/** The step of a field written as one step item (`*` counts as `*\/1`); `whole` when it covers the field. */
function singleStep(field: CronField): { step: number; from: number; to: number; whole: boolean } | null {
  const [item] = field.items;
  if (field.items.length !== 1 || item === undefined) return null;
  if (item.kind === 'any') return { step: 1, from: field.spec.min, to: field.spec.max, whole: true };
  if (item.kind !== 'step') return null;
  return { step: item.step, from: item.from, to: item.to, whole: item.start === 'any' };
}

function listJoin(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

function quantity(amount: number, unit: string): string {
  return `${amount} ${amount === 1 ? unit : `${unit}s`}`;
}

function ordinal(value: number): string {
  const tens = value % 100;
  if (tens >= 11 && tens <= 13) return `${value}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][value % 10] ?? 'th';
  return `${value}${suffix}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
