// Properties of the parsers and filters that take text agentctl does not control: schedule
// expressions (user text, checked before any request), terminal sanitising (service text shown to
// people) and timeline cursors (service text handed back to it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/emulator/timeline.js';
import { sanitizeLine, sanitizeMessage, sanitizeText } from '../../src/output/sanitize.js';
import { describeSchedule, nextFireTimes, parseSchedule, ScheduleCrash, ScheduleError } from '../../src/schedule/index.js';

// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Text with a good share of control characters and escape sequences among ordinary characters. */
const hostile = fc.array(
  fc.oneof(
    fc.string(),
    fc.constantFrom('\u001b]0;title\u0007', '\u001b[2J', '\u001b]8;;http://x\u001b\\', '\r', '\n', '\t', '\u009b31m', '\u0000', '\u007f'),
    fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
  ),
  { maxLength: 20 },
).map((parts) => parts.join(''));

describe('terminal sanitising', () => {
  it('a line keeps no control character at all, and ordinary text is unchanged', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const shown = sanitizeLine(text);
        expect(shown).not.toMatch(ANY_CONTROL);
        if (!ANY_CONTROL.test(text)) expect(shown).toBe(text);
      }),
    );
  });

  it('multi-line text keeps its newlines and tabs, nothing else that steers a terminal', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const shown = sanitizeText(text);
        expect(shown).not.toMatch(CONTROL_BUT_LINES);
        expect(shown.split('\n').length).toBe(text.replace(/\r\n/g, '\n').split('\n').length);
      }),
    );
  });

  it('a message keeps only colour sequences when colour is on, and none when it is off', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const coloured = `\u001b[31m${text}\u001b[39m`;
        // eslint-disable-next-line no-control-regex
        expect(sanitizeMessage(coloured, true).replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(CONTROL_BUT_LINES);
        expect(sanitizeMessage(coloured, false)).not.toMatch(CONTROL_BUT_LINES);
      }),
    );
  });
});

describe('schedule expressions', () => {
  const field = fc.oneof(
    fc.constant('*'),
    fc.integer({ min: -2, max: 70 }).map(String),
    fc.tuple(fc.integer({ min: 0, max: 62 }), fc.integer({ min: 0, max: 62 })).map(([a, b]) => `${a}-${b}`),
    fc.tuple(fc.constantFrom('*', '1-5', '0'), fc.integer({ min: 0, max: 70 })).map(([a, step]) => `${a}/${step}`),
    fc.constantFrom('mon', 'MON-FRI', 'sun', 'jan', 'L', '#', '?', '7', ''),
  );
  const cron = fc.array(field, { minLength: 3, maxLength: 7 }).map((fields) => fields.join(' '));
  const every = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.constantFrom('s', 'm', 'h', 'd', 'w', '')), { minLength: 0, maxLength: 4 })
    .map((parts) => `@every ${parts.map(([n, unit]) => `${n}${unit}`).join(' ')}`);
  const expression = fc.oneof(cron, every, fc.constantFrom('@daily', '@hourly', '@midnight', '@reboot', '@Daily'), fc.string());

  it('every expression is accepted (described, with fire times in order), refused with a ScheduleError, or a ScheduleCrash (the service\'s 500)', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    fc.assert(
      fc.property(expression, (text) => {
        let schedule;
        try {
          schedule = parseSchedule(text);
        } catch (error) {
          expect(error instanceof ScheduleError || error instanceof ScheduleCrash).toBe(true);
          return;
        }
        expect(describeSchedule(schedule)).not.toBe('');
        const times = nextFireTimes(schedule, from, 3).map((time) => time.getTime());
        for (const [i, time] of times.entries()) expect(time).toBeGreaterThan(i === 0 ? from.getTime() : (times[i - 1] as number));
      }),
      { numRuns: 300 },
    );
  });
});

describe('timeline cursors', () => {
  it('a cursor the emulator wrote names its event again', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.constantFrom('message', 'steps', 'thinking', 'plan', 'user_action' as const),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (seq, kind, time) => {
          expect(decodeCursor(encodeCursor({ seq, kind, timestamp: time.toISOString() }))).toBe(seq);
        },
      ),
    );
  });

  it('any other text is ignored as the service ignores it (no crash, no event)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const decoded = decodeCursor(text);
        if (decoded !== undefined) expect(Number.isSafeInteger(decoded)).toBe(true);
      }),
    );
  });
});
