import { describe, expect, it } from 'vitest';
import { FormatFailure, pyFormat, pyInt, pyRepr, pySplit, pyStrip } from '../../src/schedule/py.js';
import { parseSchedule, ScheduleCrash, ScheduleError } from '../../src/schedule/index.js';
import { summariseSchedule } from '../../src/commands/persistent/schedule-summary.js';

// The Python behaviour the service's schedule answers hang on (src/schedule/py.ts), and the order in
// which its parser looks at things. Whole verdicts are checked row by row against the service's own
// code in test/conformance/schedule-table.test.ts.

const refusal = (expression: string): string => {
  try {
    parseSchedule(expression);
  } catch (error) {
    if (error instanceof ScheduleError) return error.message;
    throw error;
  }
  throw new Error(`${expression} was accepted`);
};

describe('Python built-ins as the service uses them', () => {
  it('int(): a sign, Unicode digits, single underscores between digits', () => {
    expect(pyInt('007')).toBe(7n);
    expect(pyInt('+5')).toBe(5n);
    expect(pyInt('1_0')).toBe(10n);
    expect(pyInt('٣')).toBe(3n);
    expect(pyInt('𝟓')).toBe(5n);
    for (const text of ['', '_1', '1_', '1__0', '1.5', '²', 'x']) expect(pyInt(text), text).toBeNull();
  });

  it('repr(): quotes and escapes as Python does', () => {
    expect(pyRepr('xyz')).toBe("'xyz'");
    expect(pyRepr("x'y")).toBe('"x\'y"');
    expect(pyRepr('a\'b"c')).toBe("'a\\'b\"c'");
    expect(pyRepr('1\u200b')).toBe("'1\\u200b'");
    expect(pyRepr('\\')).toBe("'\\\\'");
  });

  it('split() and strip(): Python\'s whitespace (\\x1c and \\x85 are, \\ufeff is not)', () => {
    expect(pySplit('0\x1c0 *\x85* \u3000*')).toEqual(['0', '0', '*', '*', '*']);
    expect(pyStrip('\ufeff5 ')).toBe('\ufeff5');
  });

  it('str.format(): positional fields and doubled braces; anything else fails', () => {
    expect(pyFormat('every {0} minutes', '5{0}')).toBe('every 5{0} minutes');
    expect(pyFormat('{{}} {} and {}', 'a', 'b')).toBe('{} a and b');
    for (const template of ['{x}', '{', '}', '{1}']) expect(() => pyFormat(template, 'a'), template).toThrow(FormatFailure);
  });
});

describe('ScheduleParser.parse and crontab(): what is looked at first', () => {
  it('checks the hour before the minute, then day of week, day of month and month', () => {
    expect(refusal('60 24 32 13 7')).toBe('Invalid end range: 24 > 23.');
    expect(refusal('60 0 32 13 7')).toBe('Invalid end range: 60 > 59.');
    expect(refusal('0 0 32 13 7')).toBe('Invalid end range: 7 > 6.');
    expect(refusal('0 0 32 13 *')).toBe('Invalid end range: 32 > 31.');
  });

  it('replaces a shorthand before anything else, so `@daily` is a crontab and `@Daily` is five parts short', () => {
    expect(parseSchedule('@daily')).toMatchObject({ kind: 'cron', cron: '0 0 * * *' });
    expect(refusal('@Daily')).toMatch(/^Invalid cron format\. Expected 5 parts/);
  });

  it('reads @every up to the first newline, and crashes past what timedelta holds', () => {
    expect(parseSchedule('@every 5m\n10x')).toMatchObject({ kind: 'interval', seconds: 300 });
    expect(() => parseSchedule('@every 1000000000d')).toThrow(ScheduleCrash);
    expect(() => parseSchedule('@every 999999999d 999999999d')).toThrow(ScheduleCrash);
    expect(parseSchedule('@every 999999999d')).toMatchObject({ kind: 'interval' });
  });
});

describe('a record\'s schedule the service could not have saved', () => {
  it('is reported in the detail view, not fatal, whether refused or crashing', () => {
    expect(summariseSchedule('-5 * * * *')?.problem).toMatch(/cannot read this schedule: the service answers this schedule with 500/);
    expect(summariseSchedule('61 * * * *')?.problem).toBe('agentctl cannot read this schedule: Invalid end range: 61 > 59.');
  });
});

describe('names JavaScript objects inherit', () => {
  it('are words like any other (a Python dict has no prototype): five parts expected, or an unknown interval unit', () => {
    for (const name of ['valueOf', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(refusal(name), name).toMatch(/^Invalid cron format\. Expected 5 parts/);
    }
    expect(refusal('@every 5constructor')).toBe('Invalid interval part: 5constructor');
  });
});
