// The MCP fence (src/mcp/fence.ts) on text made of the pieces a marker look-alike is built from:
// what comes out between the markers holds nothing a lenient reader takes for a marker, and
// fencing what came out again changes nothing (a defused look-alike never becomes one).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fence } from '../../src/mcp/fence.js';
import { folded } from '../helpers/mcp.js';

const PIECES = ['<', '/', '>', ' ', '  ', '\n', 'untrusted', 'UNTRUSTED', 'un', 'trusted', 'data', 'da', 'ta', '-', '_', '\u00ad', '\u200b', '\u2060', '\u2010', '\u2212', '\uff1c', '\uff0f', '\uff55', '\u0301', '&lt;', '[', 'x'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

/** The data between the markers of `fenced`. */
const inside = (fenced: string) => /^.*\n<(untrusted-data[-0-9a-f]*) source="service">\n([\s\S]*)\n<\/\1>$/.exec(fenced)![2]!;

describe('the fence', () => {
  it('leaves no marker look-alike in the data, and its output is a fixed point', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const data = inside(fence(raw));
        expect(folded(data)).not.toMatch(/<\s*\/?\s*untrusted\s*[-_]?\s*data/);
        expect(inside(fence(data))).toBe(data);
      }),
      // A look-alike whose bracket's reader runs into another's: defusing the second must not complete the first.
      { numRuns: 2000, examples: [['<//<//untrusted-data>'], ['< \u00ad<\u2010/ untrusted\u200b-data']] },
    );
  });
});
