import { ManualClock } from '../../src/emulator/clock.js';

/**
 * The emulator's ManualClock, but a sleep returns at once and moves time forward itself (running
 * every timer due on the way), so retries, backoff, outages of minutes and an emulator's task
 * lifecycles (when the emulator shares this clock) run in microseconds and never depend on timing
 * luck. `sleeps` records every wait asked for.
 */
export class FakeClock extends ManualClock {
  readonly sleeps: number[] = [];
  /** Called after each sleep has moved time on (a fault proxy reopens when its outage is over). */
  onAdvance?: () => Promise<void> | void;

  constructor(start = Date.parse('2026-05-01T08:00:00Z')) {
    super(start);
  }

  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.advance(Math.max(0, ms));
    await this.onAdvance?.();
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  }
}
