// Properties of the parsers that read user text: ids, numbers of seconds and whole numbers, JSON
// arguments, secrets and output schemas. Each either returns a value of the promised shape or
// throws a UsageError (exit 2): never another error, never NaN.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/cli/input.js';
import { checkOutputSchema } from '../../src/contract/output-schema.js';
import { checkSecrets, checkUuid, parseIntegerFlag, parseSecondsFlag } from '../../src/contract/validate.js';
import { UsageError } from '../../src/errors.js';
import { decimalText, hostileText, json, uuid, webUrl } from '../helpers/arbitraries.js';

/** The value, or the UsageError; anything else thrown fails the property. */
function attempt<T>(parse: () => T): T | UsageError {
  try {
    return parse();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

describe('ids', () => {
  it('a UUID in any case is accepted and lower-cased', () => {
    fc.assert(
      fc.property(uuid, (id) => {
        expect(checkUuid(id, 'task id')).toBe(id.toLowerCase());
      }),
    );
  });

  it('anything else is a usage error, also a UUID with text around it', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.tuple(uuid, hostileText.filter((text) => text.length > 0), fc.boolean()).map(([id, extra, before]) => (before ? extra + id : id + extra))), (text) => {
        fc.pre(!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text));
        expect(attempt(() => checkUuid(text, 'task id'))).toBeInstanceOf(UsageError);
      }),
    );
  });
});

describe('seconds and whole numbers', () => {
  it('a decimal within bounds is read as that number', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const value = attempt(() => parseSecondsFlag(text, '--interval', 0, 7 * 24 * 3600));
        const expected = Number(text);
        if (expected <= 7 * 24 * 3600) expect(value).toBe(expected);
        else expect(value).toBeInstanceOf(UsageError);
      }),
    );
  });

  it('any text gives a finite number within bounds, or a usage error', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, decimalText, fc.constantFrom('1e3', '-1', 'Infinity', 'NaN', '0x10', '٣', '1_000', '')), fc.nat({ max: 100 }), (text, min) => {
        for (const value of [attempt(() => parseSecondsFlag(text, '--timeout', min, 1000)), attempt(() => parseIntegerFlag(text, '--page', min, 1000))]) {
          if (value instanceof UsageError) continue;
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(min);
          expect(value).toBeLessThanOrEqual(1000);
        }
      }),
    );
  });

  it('whole numbers round-trip', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (n) => {
        expect(parseIntegerFlag(String(n), '--page-size', 1, 100)).toBe(n);
      }),
    );
  });
});

describe('JSON arguments', () => {
  it('any JSON text reads back as the same value', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value);
        // Compared with JSON.parse's reading (JSON text has no -0: it reads back as 0).
        expect(parseJsonText(text, '--data')).toEqual(JSON.parse(text));
      }),
    );
  });

  it('text that is not JSON is a usage error naming where it came from', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        fc.pre(!valid);
        const result = attempt(() => parseJsonText(text, '--metadata'));
        expect(result).toBeInstanceOf(UsageError);
        expect((result as UsageError).message).toMatch(/^--metadata is not valid JSON/);
      }),
    );
  });

  it('secrets files and output schemas of any JSON shape are accepted or refused with a usage error', () => {
    fc.assert(
      fc.property(json, (value) => {
        attempt(() => checkSecrets(value, '--secrets-file'));
        attempt(() => checkOutputSchema(value));
      }),
    );
  });

  it('well-formed secrets are accepted as they are', () => {
    const secrets = fc.dictionary(
      webUrl,
      fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/), hostileText, { maxKeys: 3 }),
      { maxKeys: 3 },
    );
    fc.assert(
      fc.property(secrets, (value) => {
        expect(checkSecrets(value)).toBe(value);
      }),
    );
  });
});
