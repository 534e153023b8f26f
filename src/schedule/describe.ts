// The English description the service's schedule preview answers with: agents/services.py
// PretrainedWorkerTemplateService.describe_schedule, which hands the expression to cron-descriptor
// 2.0.6 (get_description, verbose, en_US texts, 24-hour clock) and answers with the expression
// itself for `@every` and wherever cron-descriptor gives up. Ported from cron_descriptor's
// ExpressionParser.normalize_expression and ExpressionDescriptor, quirks included ("At 00:00, every
// day", "Minutes 50 through 10 past the hour"), for the five-field expressions the service accepts.
import { FormatFailure, pyFormat, pyInt, pySplit, pyStrip } from './py.js';
import type { Schedule } from './types.js';

// describe_schedule's _CRON_MACRO_MAP (any case; `@midnight` too, though the parser refuses it).
const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SPECIAL = ['/', '-', ',', '*'];

/** What the service's preview says of an accepted schedule (its `description`). */
export function describeSchedule(schedule: Schedule): string {
  return describeExpression(pyStrip(schedule.expression));
}

/** describe_schedule(EXPRESSION): cron-descriptor's sentence, or the expression where there is none. */
export function describeExpression(expression: string): string {
  let cron = pyStrip(expression);
  if (cron.startsWith('@')) {
    const key = cron.toLowerCase();
    const macro = Object.hasOwn(MACROS, key) ? MACROS[key] : undefined;
    if (macro === undefined) return expression;
    cron = macro;
  }
  try {
    return fullDescription(normalize(cron));
  } catch (error) {
    // cron-descriptor wraps every failure in FormatError; describe_schedule then answers the expression.
    if (error instanceof DescriptionFailure || error instanceof FormatFailure) return expression;
    throw error;
  }
}

/** Where cron-descriptor raises (int() of a non-number, a day or month number out of range). */
class DescriptionFailure extends Error {}

/** ExpressionParser.parse and normalize_expression: seven parts (seconds and year empty). */
function normalize(cron: string): string[] {
  const split = pySplit(cron);
  if (split.length !== 5) throw new DescriptionFailure('not five parts');
  const parts = ['', ...split, ''];
  parts[3] = parts[3]!.replaceAll('?', '*');
  parts[5] = parts[5]!.replaceAll('?', '*');
  for (const [index, prefix] of [[1, '0/'], [2, '0/'], [3, '1/'], [4, '1/'], [5, '1/']] as const) {
    if (parts[index]!.startsWith(prefix)) parts[index] = parts[index]!.replaceAll(prefix, '*/');
  }
  // Day 7 is Sunday (day_of_week_start_index_zero).
  parts[5] = parts[5]!.replace(/(^\p{Nd})|([^#/\s]\p{Nd})/gu, (match) => {
    const digits = match.replace(/\P{Nd}/gu, '');
    return digits === '7' ? match.replace('7', '0') : match;
  });
  ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'].forEach((name, day) => {
    parts[5] = parts[5]!.toUpperCase().replaceAll(name, String(day));
  });
  ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'].forEach((name, month) => {
    parts[4] = parts[4]!.toUpperCase().replaceAll(name, String(month + 1));
  });
  const minuteStepped = ['*', '/'].some((char) => parts[1]!.includes(char));
  if (!SPECIAL.some((char) => parts[2]!.includes(char)) && minuteStepped) parts[2] += `-${parts[2]}`;
  const through: Record<number, string> = { 4: '12', 5: '6', 6: '9999' };
  for (let index = 0; index < 7; index++) {
    if (parts[index] === '*/1') parts[index] = '*';
    const part = parts[index]!;
    if (part.includes('/') && !['*', '-', ','].some((char) => part.includes(char)) && through[index] !== undefined) {
      const [start, step] = part.split('/');
      parts[index] = `${start}-${through[index]}/${step}`;
    }
  }
  return parts;
}

/** int() or the ValueError cron-descriptor would raise. */
function int(text: string): number {
  const value = pyInt(text);
  if (value === null) throw new DescriptionFailure(`invalid literal for int(): ${text}`);
  return Number(value);
}

/** Python's str.zfill. */
function zfill(text: string, width: number): string {
  const sign = /^[+-]/.test(text) ? text[0]! : '';
  return sign + text.slice(sign.length).padStart(width - sign.length, '0');
}

function formatTime(hour: string, minute: string): string {
  return `${zfill(String(int(hour)), 2)}:${zfill(String(int(minute)), 2)}`;
}

function fullDescription(parts: string[]): string {
  const text = `${timeOfDay(parts)}${dayOfMonth(parts)}${dayOfWeek(parts)}${month(parts)}`;
  const [first] = text;
  if (first === undefined) throw new DescriptionFailure('empty description');
  return first.toUpperCase() + text.slice(first.length);
}

function timeOfDay(parts: string[]): string {
  const minute = parts[1]!;
  const hour = parts[2]!;
  const special = (text: string) => SPECIAL.some((char) => text.includes(char));
  if (!special(minute) && !special(hour)) return `At ${formatTime(hour, minute)}`;
  if (minute.includes('-') && !minute.includes(',') && !special(hour)) {
    const [from = '', to = ''] = minute.split('-');
    return pyFormat('Every minute between {0} and {1}', formatTime(hour, from), formatTime(hour, to));
  }
  if (hour.includes(',') && !hour.includes('-') && !special(minute)) {
    const hours = hour.split(',');
    let text = 'At';
    hours.forEach((each, index) => {
      text += ` ${formatTime(each, minute)}`;
      if (index < hours.length - 2) text += ',';
      if (index === hours.length - 2) text += ' and';
    });
    return text;
  }
  return [minutesDescription(minute), hoursDescription(hour)].filter((text) => text !== '').join(', ');
}

/** The seven ways a field is worded (get_segment_description's arguments). */
interface Wording {
  all: string;
  single(text: string): string;
  interval(step: string): string;
  between(): string;
  format(text: string): string;
  range(): string;
}

function minutesDescription(expression: string): string {
  return segment(expression, {
    all: 'every minute',
    single: (text) => text,
    interval: (step) => pyFormat('every {0} minutes', step),
    between: () => 'minutes {0} through {1} past the hour',
    format: (text) => (text === '0' ? '' : 'at {0} minutes past the hour'),
    range: () => ', {0} through {1}',
  });
}

function hoursDescription(expression: string): string {
  return segment(expression, {
    all: 'every hour',
    single: (text) => formatTime(text, '0'),
    interval: (step) => pyFormat('every {0} hours', step),
    between: () => 'between {0} and {1}',
    format: () => 'at {0}',
    range: () => ', {0} through {1}',
  });
}

function dayOfWeek(parts: string[]): string {
  if (parts[5] === '*') return '';
  return segment(parts[5]!, {
    all: ', every day',
    single: (text) => dayName(text),
    interval: (step) => pyFormat(', every {0} days of the week', step),
    between: () => ', {0} through {1}',
    format: (text) => (text.includes('#') ? `, on the ${nth(text)} {0} of the month` : text.includes('L') ? ', on the last {0} of the month' : ', only on {0}'),
    range: () => ', {0} through {1}',
  });
}

// The en_US catalogue translates "fourth" as nothing.
const NTH: Readonly<Record<string, string>> = { '1': 'first', '2': 'second', '3': 'third', '4': '', '5': 'fifth' };

function nth(text: string): string {
  const value = pyInt(text.slice(text.indexOf('#') + 1));
  return value === null ? '' : (NTH[String(value)] ?? '');
}

function dayName(text: string): string {
  let exp = text;
  if (text.includes('#')) exp = text.split('#')[0]!;
  else if (text.includes('L')) exp = exp.replaceAll('L', '');
  // A Python list index: negative counts from the end.
  const day = int(exp);
  const name = DAY_NAMES[day < 0 ? day + 7 : day];
  if (name === undefined) throw new DescriptionFailure(`Day ${day} is out of range!`);
  return name;
}

function month(parts: string[]): string {
  return segment(parts[4]!, {
    all: '',
    single: (text) => {
      const name = MONTH_NAMES[int(text) - 1];
      if (name === undefined || int(text) < 1) throw new DescriptionFailure('month must be in 1..12');
      return name;
    },
    interval: (step) => pyFormat(', every {0} months', step),
    between: () => ', {0} through {1}',
    format: () => ', only in {0}',
    range: () => ', {0} through {1}',
  });
}

function dayOfMonth(parts: string[]): string {
  const expression = parts[3]!;
  if (expression === 'L') return ', on the last day of the month';
  if (expression === 'LW' || expression === 'WL') return ', on the last weekday of the month';
  const weekday = /^(?:(\p{Nd}{1,2}W)|(W\p{Nd}{1,2}))/u.exec(expression);
  if (weekday) {
    const day = int(weekday[0].replace('W', ''));
    const dayText = day === 1 ? 'first weekday' : pyFormat('weekday nearest day {0}', String(day));
    return pyFormat(', on the {0} of the month', dayText);
  }
  if (expression === '*' && parts[5] !== '*') return '';
  const beforeLast = /^L-(\p{Nd}{1,2})/u.exec(expression);
  if (beforeLast) return pyFormat(', {0} days before the last day of the month', beforeLast[1]!);
  return segment(expression, {
    all: ', every day',
    single: (text) => text,
    interval: (step) => (step === '1' ? ', every day' : ', every {0} days'),
    between: () => ', between day {0} and {1} of the month',
    format: () => ', on day {0} of the month',
    range: () => ', {0} through {1}',
  });
}

/** get_segment_description. */
function segment(expression: string, words: Wording): string {
  if (expression === '') return '';
  if (expression === '*') return words.all;
  if (!['/', '-', ','].some((char) => expression.includes(char))) return pyFormat(words.format(expression), words.single(expression));
  if (expression.includes('/')) return stepSegment(expression, words);
  if (expression.includes(',')) {
    const segments = expression.split(',');
    let content = '';
    segments.forEach((each, index) => {
      if (index > 0 && segments.length > 2) {
        content += ',';
        if (index < segments.length - 1) content += ' ';
      }
      if (index > 0 && segments.length > 1 && (index === segments.length - 1 || segments.length === 2)) content += ' and ';
      content += each.includes('-') ? between(each, words.range(), words).replaceAll(', ', '') : words.single(each);
    });
    return pyFormat(words.format(expression), content);
  }
  return between(expression, words.between(), words);
}

function stepSegment(expression: string, words: Wording): string {
  const segments = expression.split('/');
  const [start = '', step = ''] = segments;
  let description = pyFormat(words.interval(step), step);
  if (start.includes('-')) {
    const range = between(start, words.between(), words);
    if (!range.startsWith(', ')) description += ', ';
    description += range;
  } else if (!['*', ','].some((char) => start.includes(char))) {
    const item = pyFormat(words.format(start), words.single(start)).replaceAll(', ', '');
    description += pyFormat(', starting {0}', item);
  }
  return description;
}

/** generate_between_segment_description: the second end of an hour range reads :59 ("17:59"). */
function between(expression: string, format: string, words: Wording): string {
  const [from = '', to] = expression.split('-');
  if (to === undefined) throw new DescriptionFailure('list index out of range');
  return pyFormat(format, words.single(from), words.single(to).replaceAll(':00', ':59'));
}
