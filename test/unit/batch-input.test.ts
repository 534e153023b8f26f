import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchLines, openSource, type BatchLine } from '../../src/batch/input.js';
import { tempDir } from '../helpers/cli.js';

async function collect(source: Awaited<ReturnType<typeof openSource>>): Promise<BatchLine[]> {
  const lines: BatchLine[] = [];
  for await (const line of batchLines(source, undefined)) lines.push(line);
  return lines;
}

const noStdin = () => Promise.reject(new Error('stdin is not read for a file'));

describe('run-batch input', () => {
  it('reads a file of several read chunks: no line is split or lost at a chunk boundary, CRLF and a missing last newline included', async () => {
    // ~1.3 MB: five 256 KiB reads, with lines of varying length so boundaries fall mid-line.
    const prompts = Array.from({ length: 6000 }, (_, i) => `Task ${i} ${'é'.repeat(i % 397)}`);
    const path = join(tempDir(), 'big.jsonl');
    writeFileSync(path, prompts.map((prompt) => JSON.stringify({ prompt })).join('\r\n'));
    const lines = await collect(await openSource(path, noStdin));
    expect(lines).toHaveLength(prompts.length);
    expect(lines.map((line) => line.body.prompt)).toEqual(prompts);
    expect(lines.at(-1)?.line).toBe(prompts.length);
  });

  it('numbers lines the same from a file and from stdin, blank lines counted', async () => {
    const text = 'first\n\n{"prompt": "third", "key": "k3"}\r\nfourth\n';
    const path = join(tempDir(), 'small.txt');
    writeFileSync(path, text);
    const fromFile = await collect(await openSource(path, noStdin));
    const fromStdin = await collect(await openSource('-', () => Promise.resolve(text)));
    expect(fromStdin).toEqual(fromFile);
    expect(fromFile.map((line) => [line.line, line.body.prompt, line.key])).toEqual([
      [1, 'first', undefined],
      [3, 'third', 'k3'],
      [4, 'fourth', undefined],
    ]);
  });
});

describe('a task line that is not JSON', () => {
  it('is named by line and column, never quoted (a line may hold secrets)', async () => {
    const { parseBatchLine } = await import('../../src/batch/input.js');
    const line = `  {"prompt": "log in", "secrets": {"https://shop.example": {"PASSWORD": 'hunter2-top-secret'}}}`;
    expect(() => parseBatchLine(line, 7)).toThrow(/^line 7: not valid JSON: unexpected character \(column 73\)$/);
    expect(() => parseBatchLine('{"prompt": "x",}', 2)).toThrow('line 2: not valid JSON: Expected double-quoted property name (column 16)');
  });
});
