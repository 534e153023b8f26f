import { describe, expect, it } from 'vitest';
import { describeSchedule, parseSchedule } from '../../src/schedule/index.js';

const CASES: readonly (readonly [string, string])[] = [
  // shorthands
  ['@daily', 'every day at 00:00 UTC'],
  ['@hourly', 'every hour at minute 0'],
  ['@weekly', 'at 00:00 UTC on Sunday'],
  ['@monthly', 'at 00:00 UTC on day 1 of the month'],
  ['@yearly', 'at 00:00 UTC on day 1 of January'],
  ['@annually', 'at 00:00 UTC on day 1 of January'],
  // intervals, with the parts as written
  ['@every 1h 30m', 'every 1 hour 30 minutes'],
  ['@every 90s', 'every 90 seconds'],
  ['@every 1h', 'every hour'],
  ['@every 1d', 'every day'],
  ['@every 2d', 'every 2 days'],
  ['@every 30m 1h', 'every 1 hour 30 minutes'],
  ['@every 1h 1h', 'every 2 hours'],
  ['@every 0h 1m', 'every minute'],
  ['@every 1d 1h 1m 1s', 'every 1 day 1 hour 1 minute 1 second'],
  // times of day
  ['0 0 * * *', 'every day at 00:00 UTC'],
  ['30 9 * * 1-5', 'at 09:30 UTC on Monday through Friday'],
  ['0 9,17 * * *', 'every day at 09:00 and 17:00 UTC'],
  ['0,30 9 * * *', 'every day at 09:00 and 09:30 UTC'],
  ['0,15,30,45 9,17 * * *', 'at minutes 0, 15, 30 and 45 past hours 9 and 17 UTC'],
  ['* * * * *', 'every minute'],
  ['*/15 * * * *', 'every 15 minutes'],
  ['*/1 * * * *', 'every minute'],
  ['5 */2 * * *', 'at minute 5 past every 2nd hour'],
  ['5 9-17 * * *', 'at minute 5 past hours 9 through 17 UTC'],
  ['0,30 * * * *', 'every hour at minutes 0 and 30'],
  ['* 9 * * *', 'every minute during hour 9 UTC'],
  ['*/15 9-17 * * MON-FRI', 'every 15 minutes during hours 9 through 17 UTC on Monday through Friday'],
  ['5/20 * * * *', 'every 20 minutes from minute 5 through 59 of each hour'],
  ['0-10 * * * *', 'at minutes 0 through 10 past every hour'],
  ['0 9-17/4 * * *', 'at minute 0 past every 4th hour from 9 through 17 UTC'],
  ['0 */3 * * *', 'at minute 0 past every 3rd hour'],
  ['0 */12 * * *', 'at minute 0 past every 12th hour'],
  ['0 */11 * * *', 'at minute 0 past every 11th hour'],
  ['0 */21 * * *', 'at minute 0 past every 21st hour'],
  // days
  ['0 12 * * sun,sat', 'at 12:00 UTC on Sunday and Saturday'],
  ['0 12 * * 1,3,5', 'at 12:00 UTC on Monday, Wednesday and Friday'],
  ['0 12 * * mon/2', 'at 12:00 UTC on Monday, Wednesday and Friday'],
  ['0 12 * * 0-6', 'every day at 12:00 UTC'],
  ['0 0 1,15 * *', 'at 00:00 UTC on days 1 and 15 of the month'],
  ['0 0 1-7 * *', 'at 00:00 UTC on days 1 through 7 of the month'],
  ['0 0 */2 * *', 'at 00:00 UTC on every 2nd day of the month'],
  ['0 0 1 */3 *', 'at 00:00 UTC on day 1 of January, April, July and October'],
  ['0 0 * 2 *', 'at 00:00 UTC every day in February'],
  ['0 0 * 6-8 1', 'at 00:00 UTC on Monday in June through August'],
  ['0 0 31 2 *', 'at 00:00 UTC on day 31 of February (never fires)'],
  ['0 0 30,31 2 *', 'at 00:00 UTC on days 30 and 31 of February (never fires)'],
  ['0 0 31 4,6 *', 'at 00:00 UTC on day 31 of April and June (never fires)'],
  ['0 0 29 2 *', 'at 00:00 UTC on day 29 of February'],
  // the service's AND rule for day-of-month and day-of-week
  ['0 0 13 * 5', 'at 00:00 UTC on day 13 of the month, only if it is a Friday'],
  ['0 9 1-7 * mon', 'at 09:00 UTC on days 1 through 7 of the month, only if it is a Monday'],
  ['0 0 13 * 1-5', 'at 00:00 UTC on day 13 of the month, only if it falls on Monday through Friday'],
  ['0 0 1 * sat,sun', 'at 00:00 UTC on day 1 of the month, only if it falls on Sunday or Saturday'],
  ['0 0 29 2 1', 'at 00:00 UTC on day 29 of February, only if it is a Monday'],
];

describe('describeSchedule', () => {
  it.each(CASES)('%s -> %s', (expression, expected) => {
    expect(describeSchedule(parseSchedule(expression))).toBe(expected);
  });

  it('describes every accepted shape without throwing', () => {
    for (const expression of ['1,2,3-5,*/20 * * * *', '*,5 * * * *', '0 0 1-31/2 * *', '0 0 * * sun-sat', '0 0 */31 * *']) {
      expect(describeSchedule(parseSchedule(expression))).toMatch(/\w/);
    }
    expect(describeSchedule(parseSchedule('1,2,3-5,*/20 * * * *'))).toBe(
      'at minutes 1, 2, 3 through 5 and every 20th minute past every hour',
    );
  });
});
