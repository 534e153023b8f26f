import { describe, expect, it } from 'vitest';
import { name } from '../../src/core/checks.js';
import {
  checkCreditsCost,
  checkSecrets,
  checkUuid,
  checkWebhookUrl,
  parseIntegerFlag,
  splitPair,
  LIMITS,
} from '../../src/contract/validate.js';
import { checkOutputSchema } from '../../src/contract/output-schema.js';
import { SERVICE_LIMITS } from '../../src/contract/limits.js';

describe('input validation before any request', () => {
  it('accepts UUIDs and explains anything else', () => {
    expect(checkUuid('3F2B8C1E-5D4A-4C7B-9E2F-1A2B3C4D5E6F', 'task id')).toBe('3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f');
    expect(() => checkUuid('42', 'task id')).toThrow('task id "42" is not a UUID');
  });

  it('checks the limits the service applies: one table, the faces and the emulator the same numbers', () => {
    for (const [key, value] of Object.entries(SERVICE_LIMITS)) expect([key, LIMITS[key as keyof typeof LIMITS]]).toEqual([key, value]);
    expect(LIMITS.legacyAgentName).toBe(255); // gobii-platform's BrowserUseAgent.name (max_length=255), not the document's 64
  });

  it('limits names by characters (the core check, src/core/checks.ts)', () => {
    expect(name('name', '\u{1F600}'.repeat(64), 64)).toHaveLength(128);
    expect(() => name('name', 'a'.repeat(65), 64)).toThrow('name: is 65 characters long; the limit is 64');
    expect(() => name('name', '  ', 64)).toThrow('must not be empty');
  });

  it('bounds integers', () => {
    expect(parseIntegerFlag('1350', '--wait', 0, 1350)).toBe(1350);
    expect(() => parseIntegerFlag('1351', '--wait', 0, 1350)).toThrow('--wait must be between 0 and 1350, got 1351');
    expect(() => parseIntegerFlag('1.5', '--wait', 0, 1350)).toThrow('whole number');
    expect(() => parseIntegerFlag('0', '--page-size', 1, 100)).toThrow('between 1 and 100');
  });

  it.each(['0.4', '12', '-1.250', '123456789.123', '.5'])('credits cost %s is accepted', (value) => {
    expect(checkCreditsCost(value)).toBe(value);
  });
  it.each(['1234567890', '0.1234', 'abc', '', '-', '1,5'])('credits cost %s is refused', (value) => {
    expect(() => checkCreditsCost(value)).toThrow('not a decimal');
  });

  it('wants http or https webhooks', () => {
    expect(checkWebhookUrl('https://hooks.example/x?t=1')).toBe('https://hooks.example/x?t=1');
    expect(() => checkWebhookUrl('ftp://x')).toThrow('http:// or https://');
    expect(() => checkWebhookUrl('not a url')).toThrow('is not a URL');
  });

  it('wants an output schema object within limits', () => {
    expect(checkOutputSchema({ type: 'object' })).toEqual({ type: 'object' });
    expect(() => checkOutputSchema([1])).toThrow('must be a JSON object');
    expect(() => checkOutputSchema('x')).toThrow('must be a JSON object');
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 45; i++) deep = { items: deep };
    expect(() => checkOutputSchema(deep)).toThrow('would be refused by the service: Schema too deep - maximum nesting level is 40');
    const wide = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`k${i}`, 1]));
    expect(() => checkOutputSchema(wide)).toThrow('Schema too complex - maximum property count is 2000');
    expect(() => checkOutputSchema({ required: 'x' })).toThrow('would be refused by the service: Invalid JSON Schema: /required must be array');
  });

  it('checks the secrets shape and limits', () => {
    expect(checkSecrets({ 'https://a.example': { USER: 'u', _PW2: 'p' } })).toBeTruthy();
    expect(() => checkSecrets([])).toThrow('must be an object');
    expect(() => checkSecrets({ d: 'x' })).toThrow('must be an object of KEY: value pairs');
    expect(() => checkSecrets({ d: { '1BAD': 'x' } })).toThrow('key 1 of 1 of domain 1 of 1 is not a secret key');
    expect(() => checkSecrets({ d: { K: 5 } })).toThrow('must be a string');
    expect(() => checkSecrets({ d: { K: 'x'.repeat(4097) } })).toThrow('limit is 4 KB');
    const manyDomains = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`d${i}`, { K: 'v' }]));
    expect(() => checkSecrets(manyDomains)).toThrow('21 domains; the limit is 20');
    const manySecrets = { d: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`K${i}`, 'v'])) };
    expect(() => checkSecrets(manySecrets)).toThrow('51 secrets; the limit is 50');
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, d) => [`d${d}`, { A: 'x'.repeat(4000), B: 'y'.repeat(1200) }]));
    expect(() => checkSecrets(big)).toThrow('limit is 100 KB');
  });

  it('splits KEY=VALUE without echoing what might be a secret', () => {
    expect(splitPair('PW=a=b', '--secret')).toEqual(['PW', 'a=b']);
    expect(() => splitPair('hunter2', '--secret')).toThrow(/^(?!.*hunter2)/);
  });
});
