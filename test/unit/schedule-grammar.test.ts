import { describe, expect, it } from 'vitest';
import { checkSchedule, MAX_SCHEDULE_LENGTH, parseSchedule, ScheduleError } from '../../src/schedule/index.js';

// The service's accept/reject answers (docs/service-behaviour.md, "Persistent agents").
const ACCEPTED: readonly string[] = [
  // shorthands
  '@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly',
  // intervals
  '@every 90s', '@every 1h 30m', '@every 1d', '@every 5m', '@every 1h  30m', '@every 2d 3h 4m 5s', '@every 30m 1h',
  '@every 0s 1m', '@every 1h 1h',
  // cron
  '* * * * *', '0 0 * * *', '30 9 * * 1-5', '*/15 * * * *', '5 */2 * * *', '0 0 31 2 *', '0 0 13 * 5',
  '0 12 29 2 *', '0 0 29 2 1', '59 23 31 12 6', '0 0 1 1 0', '0,30 * * * *', '0 9-17 * * *', '0 9-17/2 * * *',
  '5/15 * * * *', '0 0 1-31/2 * *', '0 0 * * mon', '0 0 * * MON-FRI', '0 0 * * sun,sat', '0 0 * * Tue',
  '0 0 * * mon/2', '0 0 * * sun-sat', '0 0 */31 * *', '*/60 * * * *', '0 */24 * * *', '0 0 * */12 *',
  '0 0 * * */7', '5-5 * * * *', '00 09 * * *', '1,2,3-5,*/20 * * * *', '0 0 1 1,4,7,10 *',
  '0\t0  *   * *', '  0 0 * * *  ', '0 0 13 * 1-5', '0 0 * 2 *',
];

// Each rejected expression with a fragment of the reason.
const REJECTED: readonly (readonly [string, string])[] = [
  ['', 'empty'],
  ['   ', 'empty'],
  ['@midnight', '@midnight is not supported'],
  ['@reboot', '@reboot is not supported'],
  ['@Daily', 'shorthands are lowercase, use "@daily"'],
  ['@DAILY', 'use "@daily"'],
  ['@foo', 'unknown shorthand "@foo"'],
  ['@', 'unknown shorthand'],
  ['@daily 5', '@daily takes nothing after it'],
  ['@every', '@every needs an interval'],
  ['@every   ', '@every needs an interval'],
  ['@every 1h30m', '@every parts need a space between them: "1h 30m"'],
  ['@every 1d2h3m', '"1d 2h 3m"'],
  ['@every 0s', 'must be longer than 0 seconds'],
  ['@every 0h 0m', 'must be longer than 0 seconds'],
  ['@every 1x', 'unit "x"'],
  ['@every 1w', 'unit "w"'],
  ['@every 100ms', 'unit "ms"'],
  ['@every -5m', 'negative'],
  ['@every 1.5h', 'whole numbers'],
  ['@every 90', 'needs a unit'],
  ['@every 1H', 'lowercase'],
  ['@every h', 'invalid @every part "h"'],
  ['@every 99999999999999999999d', 'too long'],
  ['@Every 1h', 'use "@every"'],
  ['@every1h', 'unknown shorthand "@every1h"'],
  ['0 0 * * 7', 'day-of-week value 7 is out of range 0-6 (use 0 for Sunday)'],
  ['0 0 * * 0-7', 'day-of-week value 7 is out of range 0-6'],
  ['0 0 1 jan *', 'month names are not supported; use 1-12'],
  ['0 0 1 JAN-MAR *', 'month names are not supported'],
  ['0 0 1 january *', 'month names are not supported'],
  ['0 0 L * *', '"L" (last) is not supported'],
  ['0 0 * * 5L', '"L" (last) is not supported'],
  ['0 0 LW * *', '"L" (last) is not supported'],
  ['0 0 * * 5#3', '"#" (nth weekday of the month) is not supported'],
  ['0 0 * * FRI#2', '"#"'],
  ['0 0 ? * *', '"?" is not supported'],
  ['0 0 * * ?', '"?" is not supported'],
  ['0 0 15W * *', '"W" (nearest weekday) is not supported'],
  ['60 * * * *', 'minute value 60 is out of range 0-59'],
  ['0 24 * * *', 'hour value 24 is out of range 0-23'],
  ['0 0 0 * *', 'day-of-month value 0 is out of range 1-31'],
  ['0 0 32 * *', 'day-of-month value 32 is out of range 1-31'],
  ['0 0 * 0 *', 'month value 0 is out of range 1-12'],
  ['0 0 * 13 *', 'month value 13 is out of range 1-12'],
  ['5-1 * * * *', 'minute range 5-1 is reversed'],
  ['0 0 * * fri-mon', 'day-of-week range fri-mon is reversed'],
  ['*/0 * * * *', 'minute step 0'],
  ['0 0 1-10/0 * *', 'day-of-month step 0'],
  ['*/61 * * * *', 'minute step 61 in "*/61" is larger than the field\'s 60 values'],
  ['*/90 * * * *', '"@every 90m"'],
  ['0 */36 * * *', '"@every 36h"'],
  ['0 0 * * */8', 'day-of-week step 8'],
  ['* * * *', 'expected 5 fields (minute hour day-of-month month day-of-week), got 4'],
  ['* * * * * *', 'expected 5 fields (minute hour day-of-month month day-of-week), got 6'],
  ['0 0 0 * * * 2026', 'got 7'],
  ['*', 'got 1'],
  ['every 5m', 'did you mean "@every"'],
  ['daily', 'did you mean "@daily"'],
  ['1,,2 * * * *', 'empty list item'],
  ['1, * * * *', 'empty list item'],
  ['1, 2 * * * *', 'separated by commas without spaces'],
  [',1 * * * *', 'empty list item'],
  ['1,2, * * * *', 'empty list item'],
  ['0 0 * * mon,', 'empty list item'],
  ['-5 * * * *', 'cannot be negative'],
  ['/5 * * * *', 'needs a start'],
  ['5/ * * * *', 'step is missing'],
  ['*/5/2 * * * *', 'more than one "/"'],
  ['*/x * * * *', 'step "x"'],
  ['1-2-3 * * * *', 'range "1-2-3" is not valid'],
  ['1- * * * *', 'range "1-" is not valid'],
  ['*-5 * * * *', 'invalid minute "*-5"'],
  ['a * * * *', 'invalid minute "a"'],
  ['H * * * *', 'invalid minute "H"'],
  ['0 mon * * *', 'only allowed in the day-of-week field'],
  ['0 0 * * monday', 'use "mon", not "monday"'],
  ['0 0 * * jan', '"jan" is not a day of the week'],
  ['0 0 * * 1.5', 'invalid day-of-week'],
  ['0 0 * * ٣', 'invalid day-of-week'],
  ['0'.repeat(MAX_SCHEDULE_LENGTH + 1), 'is 129 characters long; the limit is 128'],
];

describe('schedule grammar: the service accepts', () => {
  it.each(ACCEPTED)('%j', (expression) => {
    expect(() => parseSchedule(expression)).not.toThrow();
  });
});

describe('schedule grammar: the service rejects', () => {
  it.each(REJECTED)('%j (%s)', (expression, reason) => {
    let caught: unknown;
    try {
      parseSchedule(expression);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScheduleError);
    expect((caught as ScheduleError).message).toContain(reason);
  });

  it('has a big enough table', () => {
    expect(ACCEPTED.length + REJECTED.length).toBeGreaterThanOrEqual(120);
  });
});

describe('parsed shapes', () => {
  it('maps each shorthand to its cron', () => {
    expect(parseSchedule('@yearly')).toEqual({ kind: 'shorthand', expression: '@yearly', name: '@yearly', cron: '0 0 1 1 *' });
    expect(parseSchedule('@annually')).toMatchObject({ cron: '0 0 1 1 *' });
    expect(parseSchedule('@monthly')).toMatchObject({ cron: '0 0 1 * *' });
    expect(parseSchedule('@weekly')).toMatchObject({ cron: '0 0 * * 0' });
    expect(parseSchedule('@daily')).toMatchObject({ cron: '0 0 * * *' });
    expect(parseSchedule(' @hourly\n')).toEqual({ kind: 'shorthand', expression: '@hourly', name: '@hourly', cron: '0 * * * *' });
  });

  it('adds up interval parts in seconds', () => {
    expect(parseSchedule('@every 90s')).toEqual({ kind: 'interval', expression: '@every 90s', seconds: 90 });
    expect(parseSchedule('@every 1h 30m')).toMatchObject({ seconds: 5400 });
    expect(parseSchedule('@every 2d 3h 4m 5s')).toMatchObject({ seconds: 2 * 86400 + 3 * 3600 + 4 * 60 + 5 });
    expect(parseSchedule('@every 1h 1h')).toMatchObject({ seconds: 7200 });
  });

  it('keeps cron as written, trimmed, with its fields single-spaced', () => {
    expect(parseSchedule('  0\t9  * *   MON-FRI ')).toEqual({ kind: 'cron', expression: '0\t9  * *   MON-FRI', cron: '0 9 * * MON-FRI' });
  });

  it('counts the length after trimming, in characters', () => {
    const longest = `${'0,'.repeat(59)}10 * * * *`;
    expect(longest).toHaveLength(MAX_SCHEDULE_LENGTH);
    expect(() => parseSchedule(`   ${longest}\n`)).not.toThrow();
    expect(() => parseSchedule(`${'0,'.repeat(60)}0 * * * *`)).toThrow('is 129 characters long; the limit is 128');
  });
});

describe('checkSchedule', () => {
  it('treats null, undefined and blank as disabled', () => {
    expect(checkSchedule(null)).toBeNull();
    expect(checkSchedule(undefined)).toBeNull();
    expect(checkSchedule(' \t ')).toBeNull();
  });

  it('parses anything else, and throws for what the service rejects', () => {
    expect(checkSchedule('@daily')).toMatchObject({ kind: 'shorthand' });
    expect(() => checkSchedule('@midnight')).toThrow(ScheduleError);
  });
});
