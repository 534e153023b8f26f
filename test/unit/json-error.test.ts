import { describe, expect, it } from 'vitest';
import { describeJsonError } from '../../src/contract/json-error.js';

const describe1 = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    return describeJsonError(text, error);
  }
  throw new Error('parsed');
};

// A secrets file or a config file holds keys: why and where it does not parse, never its text.
describe('describeJsonError', () => {
  it.each([
    ['{"https://shop.example": {"PASSWORD": \'hunter2-top-secret\'}}', 'unexpected character (line 1, column 39)'],
    ['sk-live-0123456789abcdef', 'unexpected character (line 1, column 1)'],
    ['{\n  "a": 1,\n  "b": tru\n}', 'unexpected character (line 3, column 11)'],
    ['{"a": 1,}', 'Expected double-quoted property name (line 1, column 9)'],
    ['{"a" 1}', "Expected ':' after property name (line 1, column 6)"],
    ['{"a": "x', 'Unterminated string (line 1, column 9)'],
    ['', 'it is empty'],
    ['{"a": [1, 2', "Expected ',' or ']' after array element (line 1, column 12)"],
    ['{"a": [1, 2,', 'it ends too early'],
  ])('%j: %s', (text, expected) => {
    const described = describe1(text);
    expect(described).toBe(expected);
    expect(described).not.toContain('hunter2');
    expect(described).not.toContain('sk-live');
  });
});
