import { describe, expect, it } from 'vitest';
import { checkJq, runJq } from '../../src/output/jq.js';

// --jq runs jq's main() once per value in a WebAssembly instance that loses a little of its stack
// each run: as published, the ~310th value of a list failed with "memory access out of bounds".

describe('--jq over many values', () => {
  // 400 runs (~10 ms each): past the 312th that failed, through eight renewals of the instance.
  it('filters 400 values in a row (a long list, a big batch), each with its own output', async () => {
    await checkJq('.id');
    const outputs: string[] = [];
    for (let i = 0; i < 400; i++) outputs.push(await runJq('.id', { id: `task-${i}` }, true));
    expect(outputs).toHaveLength(400);
    expect(outputs[399]).toBe('task-399\n');
    expect(new Set(outputs).size).toBe(400);
  });

  it('keeps working after an expression fails at run time', async () => {
    await expect(runJq('error("boom")', {}, true)).rejects.toThrow(/boom/);
    expect(await runJq('.a', { a: 1 }, true)).toBe('1\n');
  });
});

describe('--jq with a long expression', () => {
  // Each run also leaves the expression's own bytes behind (~1 MB lasts 14 runs of a 70 KB one,
  // 52 of a 16 KB one): a fixed 50 runs per instance failed at the ~44th value of a 24 KB one.
  it('filters 100 values with a 24 KB expression', async () => {
    const expression = `.id | (${' '.repeat(24 * 1024)}.)`;
    await checkJq(expression);
    for (let i = 0; i < 100; i++) expect(await runJq(expression, { id: `task-${i}` }, true)).toBe(`task-${i}\n`);
  });
});
