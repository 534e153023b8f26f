import { describe, expect, it } from 'vitest';
import { wrapText } from '../../src/output/format.js';

describe('wrapText', () => {
  it('breaks at spaces, keeps line breaks and blank lines, cuts a word longer than a line', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('first\n\nsecond paragraph', 10)).toEqual(['first', '', 'second', 'paragraph']);
    expect(wrapText('a https://example.com/very/long/path b', 10)).toEqual(['a', 'https://ex', 'ample.com/', 'very/long/', 'path b']);
    expect(wrapText('crlf\r\nline', 20)).toEqual(['crlf', 'line']);
  });
  it('never makes a line wider than asked', () => {
    const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt '.repeat(5);
    for (const width of [1, 7, 40, 80]) for (const line of wrapText(text, width)) expect(line.length).toBeLessThanOrEqual(width);
  });
});
