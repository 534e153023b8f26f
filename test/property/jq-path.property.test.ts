// A --jq that only reads keys is answered without jq (src/output/jq-path.ts) wherever the answer is
// certain to be jq's: held here to jq itself (the bundled jq 1.7, as `--jq` runs it) over documents
// built to meet every case: missing keys, null on the way, inherited names (`constructor`,
// `__proto__`), text with control characters and lone surrogates, integers, fractions, nesting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runJq } from '../../src/output/jq.js';
import { pathText, plainPath } from '../../src/output/jq-path.js';

const KEYS = ['a', 'id', 'x_1', 'constructor', '__proto__', 'toString'];

const leaf = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const { document } = fc.letrec((tie) => ({
  document: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), fc.array(tie('document'), { maxLength: 3 })),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('document'), { maxKeys: 4 }),
}));
const path = fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 });

describe('a --jq that only reads keys, answered without jq', () => {
  it('prints what jq prints, wherever it answers', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(path, document, async (keys, value) => {
        const expression = `.${keys.join('.')}`;
        expect(plainPath(expression)).toEqual(keys);
        const line = pathText(keys, value);
        if (line === undefined) return;
        answered++;
        expect(`${line}\n`).toBe(await runJq(expression, value, true));
      }),
      { numRuns: 300 },
    );
    expect(answered).toBeGreaterThan(50); // a good share of the cases are answered, not left to jq
  });

  it('leaves to jq what it cannot be sure of: objects, arrays, fractions, indexing a non-object', () => {
    expect(pathText(['a'], { a: { b: 1 } })).toBeUndefined();
    expect(pathText(['a'], { a: [1] })).toBeUndefined();
    expect(pathText(['a'], { a: 1.5 })).toBeUndefined();
    expect(pathText(['a'], { a: 2 ** 60 })).toBeUndefined();
    expect(pathText(['a', 'b'], { a: 'text' })).toBeUndefined(); // jq: Cannot index string with "b"
    expect(pathText(['a'], [{ a: 1 }])).toBeUndefined();
    expect(pathText(['a', 'b'], { a: null })).toBe('null');
    expect(pathText(['constructor'], {})).toBe('null');
  });

  it('takes only key paths, never a keyword or any other jq', () => {
    for (const expression of ['.', '.[]', '.a[]', '.a?', '. a', '.a | .b', '.["a"]', '.if', '.and', '.__loc__', '.a.end', '.1a', 'input.a', '..a', '.a.', '$__loc__']) {
      expect(plainPath(expression), expression).toBeUndefined();
    }
    expect(plainPath('.id')).toEqual(['id']);
    expect(plainPath('.agent.name')).toEqual(['agent', 'name']);
  });
});
