import { describe, expect, it } from 'vitest';
import { JqStream } from '../../src/output/jq-stream.js';
import { JqWorker } from '../../src/output/jq-thread.js';

// `--jsonl --jq` starts jq's thread before the command line is read (src/cli/main.ts): a command
// that fails first must not leave it running, and a stream must run jq in it.

describe("jq's thread started ahead", () => {
  it('ends when released without a stream taking it', async () => {
    const thread = new JqWorker();
    thread.release();
    expect((await thread.gone).message).toMatch(/ended/);
  });

  it('runs the stream handed to it, the expression checked and every line filtered', async () => {
    const printed: string[] = [];
    const stream = new JqStream('.id', true, { stdout: async (text) => void printed.push(text), stderr: () => {} }, new JqWorker());
    await stream.compiled;
    await stream.send('{"id":"a"}\n{"id":"b"}\n');
    await stream.send('{"id":"c"}\n');
    expect(await stream.end()).toBe(0);
    expect(printed.join('')).toBe('a\nb\nc\n');
  });

  it('is not ended by a release once a stream runs jq in it', async () => {
    const printed: string[] = [];
    const thread = new JqWorker();
    const stream = new JqStream('.', true, { stdout: async (text) => void printed.push(text), stderr: () => {} }, thread);
    thread.release();
    await stream.send('1\n');
    expect(await stream.end()).toBe(0);
    expect(printed.join('')).toBe('1\n');
  });
});
