import type { Clock } from '../contract/clock.js';

/**
 * One gate for every request of a many-request command (a batch, a multi-task wait): at most
 * `concurrency` requests in flight, and a pause shared by all of them. When the service answers
 * 429, the caller calls pause(Retry-After) and every worker waits it out, not just the one that got
 * the 429, so a rate-limited service sees the whole command slow down at once. With a rate, requests
 * also start at most that many a second, evenly spaced (creates and polls of a batch share it).
 */
export class RateGate {
  private active = 0;
  private readonly queue: Array<{ start: () => void; stop: (reason: unknown) => void }> = [];
  private pausedUntil = 0;
  private sleeping?: { until: number; done: Promise<void> };
  /** When the next request may start, with a rate. */
  private nextStartAt = 0;

  constructor(
    readonly concurrency: number,
    private readonly clock: Clock,
    private readonly signal?: AbortSignal,
    /** Requests started per second at most (undefined: only concurrency bounds them). */
    readonly ratePerSecond?: number,
  ) {
    // One listener for all queued requests (not one each: thousands may queue).
    signal?.addEventListener('abort', () => this.queue.splice(0).forEach((waiter) => waiter.stop(signal.reason)), { once: true });
  }

  /** Runs `request` when a slot is free and no pause is in force. */
  async run<T>(request: () => Promise<T>): Promise<T> {
    // Awaited only when there is something to wait for: a batch runs thousands of requests through here.
    const queued = this.acquire();
    if (queued) await queued;
    try {
      if (this.pausedUntil > 0 && this.pausedForMs > 0) await this.waitOutPause();
      if (this.ratePerSecond !== undefined) await this.waitForTurn(this.ratePerSecond);
      return await request();
    } finally {
      this.release();
    }
  }

  /** Holds every request that has not started yet for `ms` (the longest pause asked for wins). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** Milliseconds left of the current pause (0 when none). */
  get pausedForMs(): number {
    return Math.max(0, this.pausedUntil - this.clock.now());
  }

  /** Each request takes the next start time 1/rate after the previous one's. */
  private async waitForTurn(rate: number): Promise<void> {
    const now = this.clock.now();
    const at = Math.max(now, this.nextStartAt);
    this.nextStartAt = at + 1000 / rate;
    if (at > now) await this.clock.sleep(at - now, this.signal);
  }

  private async waitOutPause(): Promise<void> {
    while (this.pausedForMs > 0) {
      // Everyone waiting shares one sleep until the pause ends (or a longer pause replaces it).
      if (this.sleeping?.until !== this.pausedUntil) this.sleeping = { until: this.pausedUntil, done: this.clock.sleep(this.pausedForMs, this.signal) };
      await this.sleeping.done;
    }
  }

  /** Takes a slot: at once (undefined) when one is free, else a promise of one. */
  private acquire(): Promise<void> | undefined {
    if (this.signal?.aborted) return Promise.reject(this.signal.reason);
    if (this.active < this.concurrency) {
      this.active++;
      return undefined;
    }
    return new Promise((resolve, reject) => {
      this.queue.push({
        start: () => {
          this.active++;
          resolve();
        },
        stop: reject,
      });
    });
  }

  private release(): void {
    this.active--;
    this.queue.shift()?.start();
  }
}
