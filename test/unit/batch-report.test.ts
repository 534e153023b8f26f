import { describe, expect, it } from 'vitest';
import { BatchReport, type ReportDeps } from '../../src/batch/report.js';

/** What BatchReport reads of a run's context: a piped stdout, no terminal anywhere. */
function pipedRun() {
  const interrupt = new AbortController();
  let stdout = '';
  const ctx: ReportDeps = {
    clock: { now: () => 0 },
    tty: { progress: false, facts: { stdoutIsTTY: false } },
    io: { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true } },
    out: { settings: { quiet: true }, jsonLine: () => undefined },
    signal: interrupt.signal,
  };
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
