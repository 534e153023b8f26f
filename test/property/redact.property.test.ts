// The redactor against every way a service can echo a secret back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor, encodedForms } from '../../src/api/redact.js';
import { hostileText, json, secret } from '../helpers/arbitraries.js';

/** JSON as other encoders write it: Python's ensure_ascii, Go's HTML-safe, PHP's escaped slashes. */
const encoders: Array<[string, (value: unknown) => string]> = [
  ['JSON.stringify', (value) => JSON.stringify(value)],
  ['pretty', (value) => JSON.stringify(value, null, 2)],
  ['ASCII-only', (value) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
  ['upper-case escapes', (value) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)],
  ['HTML-safe', (value) => JSON.stringify(value).replace(/[<>&\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
  ['escaped slashes', (value) => JSON.stringify(value).replaceAll('/', '\\/')],
];

describe('Redactor', () => {
  it('no echo of a secret survives, in any encoder\'s JSON or in a query string', () => {
    fc.assert(
      fc.property(secret, hostileText, hostileText, json, fc.constantFrom(...encoders), (value, before, after, other, [, encode]) => {
        const redactor = new Redactor();
        redactor.add(value);
        const echoed = encode({ detail: `${before}${value}${after}`, other, secrets: { 'https://x.example': { PASSWORD: value } } });
        const query = `?password=${encodeURIComponent(value)}`;
        const out = redactor.redact(`${echoed} ${query}`);
        expect(out).toContain('***');
        for (const form of encodedForms(value)) expect(out).not.toContain(form);
        // What is left decodes to text without the secret.
        expect(JSON.stringify(JSON.parse(redactor.redact(JSON.stringify({ s: value }))))).not.toContain(JSON.stringify(value).slice(1, -1));
      }),
    );
  });

  it('no secret survives in a parsed body, in its texts or its keys, however deep (ApiError.body)', () => {
    fc.assert(
      fc.property(secret, hostileText, json, fc.integer({ min: 0, max: 3 }), (value, text, other, depth) => {
        const redactor = new Redactor();
        redactor.add(value);
        let body: unknown = { detail: `${text}${value}`, [value]: [other, value], ['__proto__']: { x: value } };
        for (let i = 0; i < depth; i++) body = [{ nested: body }];
        const parsed = JSON.parse(JSON.stringify(body)) as unknown;
        const clean = redactor.redactValue(parsed);
        expect(JSON.stringify(clean)).not.toContain(JSON.stringify(value).slice(1, -1));
        expect(JSON.stringify(clean)).toContain('***');
      }),
    );
    // A body deeper than recursion reaches.
    const redactor = new Redactor();
    redactor.add('deep-secret');
    const deep = JSON.parse(`${'['.repeat(100_000)}"deep-secret"${']'.repeat(100_000)}`) as unknown;
    let inner = redactor.redactValue(deep);
    while (Array.isArray(inner)) inner = inner[0];
    expect(inner).toBe('***');
  });

  it('text without the secret is left as it is', () => {
    fc.assert(
      fc.property(secret, hostileText, (value, text) => {
        fc.pre(!encodedForms(value).some((form) => text.includes(form)));
        const redactor = new Redactor();
        redactor.add(value);
        expect(redactor.redact(text)).toBe(text);
      }),
    );
  });
});
