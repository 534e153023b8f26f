import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/contract/clock.js';
import { PROGRESS_LINE_EVERY_MS, formatElapsed, startSpinner } from '../../src/output/spinner.js';

/** A clock whose sleeps end when the test says so. */
function manualClock() {
  let now = 0;
  const sleepers: Array<() => void> = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        sleepers.push(() => {
          now += ms;
          resolve();
        });
      }),
  };
  const tick = async () => {
    sleepers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { clock, tick };
}

describe('progress on a terminal that reports 0 columns', () => {
  it('prints a plain "still running" line every so often instead of a spinner, until stopped', async () => {
    const { clock, tick } = manualClock();
    let text = '';
    const stream = { columns: 0, write: (chunk: string) => (text += chunk) };
    const spinner = await startSpinner('Task abc: pending', true, stream, clock);
    spinner.text('Task abc: in_progress (3s)');
    await tick();
    expect(text).toBe(`Task abc: in_progress: still running (${formatElapsed(PROGRESS_LINE_EVERY_MS)})\n`);
    for (let i = 0; i < 8; i++) await tick();
    expect(text.trim().split('\n').at(-1)).toBe('Task abc: in_progress: still running (2m15s)');
    spinner.stop();
    const before = text;
    await tick();
    expect(text).toBe(before);
  });

  it('stays silent when not interactive', async () => {
    const { clock, tick } = manualClock();
    let text = '';
    const spinner = await startSpinner('x', false, { columns: 0, write: (chunk: string) => (text += chunk) }, clock);
    await tick();
    spinner.stop();
    expect(text).toBe('');
  });
});
