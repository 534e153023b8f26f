import type { Clock } from '../../src/contract/clock.js';

/**
 * A clock whose sleeps return at once and move time forward instead, so retries, backoff and
 * outages of minutes run in microseconds and never depend on timing luck. `sleeps` records every
 * wait asked for.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  /** Called after each sleep has moved time on (a fault proxy reopens when its outage is over). */
  onAdvance?: () => Promise<void> | void;
  constructor(public time = Date.parse('2026-05-01T08:00:00Z')) {}

  now(): number {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.time += Math.max(0, ms);
    await this.onAdvance?.();
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}
