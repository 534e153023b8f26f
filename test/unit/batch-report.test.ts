import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/cli/context.js';
import { BatchReport } from '../../src/batch/report.js';

/** What BatchReport reads of a run's context: a piped stdout, no terminal anywhere. */
function pipedRun() {
  const interrupt = new AbortController();
  let stdout = '';
  const ctx = {
    clock: { now: () => 0 },
    env: {},
    terminal: { stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
    io: { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true } },
    out: { settings: { quiet: true } },
    signal: interrupt.signal,
  } as unknown as Context;
  return { ctx, interrupt, stdout: () => stdout };
}

describe('BatchReport', () => {
  it('piped, holds lines for one write, and Ctrl-C writes them before the run ends', () => {
    const run = pipedRun();
    const report = new BatchReport(run.ctx, 2);
    report.emit({ id: 'a', status: 'completed', result: null, error: null }, 0);
    expect(run.stdout()).toBe(''); // waiting to go out with the next lines
    run.interrupt.abort('SIGINT');
    expect(JSON.parse(run.stdout())).toEqual({ id: 'a', status: 'completed', result: null, error: null });
  });
});
