import type { Clock, TimerHandle } from '../../src/emulator/clock.js';

/**
 * A clock whose sleeps return at once and move time forward instead, running every timer that
 * falls due on the way, so retries, backoff, outages of minutes and an emulator's task lifecycles
 * (when the emulator shares this clock) run in microseconds and never depend on timing luck.
 * `sleeps` records every wait asked for.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  /** Called after each sleep has moved time on (a fault proxy reopens when its outage is over). */
  onAdvance?: () => Promise<void> | void;
  private timers: Array<{ handle: TimerHandle; at: number; action: () => void }> = [];
  private nextId = 0;

  constructor(public time = Date.parse('2026-05-01T08:00:00Z')) {}

  now(): number {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.advance(Math.max(0, ms));
    await this.onAdvance?.();
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  }

  setTimeout(action: () => void, ms: number): TimerHandle {
    const handle = { id: ++this.nextId };
    this.timers.push({ handle, at: this.time + Math.max(0, ms), action });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((timer) => timer.handle.id !== handle.id);
  }

  /** Moves time forward, running each timer due on the way at its own instant. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.handle.id - b.handle.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = Math.max(this.time, due.at);
      due.action();
    }
    this.time = end;
  }
}
