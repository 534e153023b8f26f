import { systemClock as contractClock, type Clock as ContractClock } from '../contract/clock.js';

// The emulator's time: what "now" is and when scheduled work runs. The command uses the system
// clock; tests use a ManualClock and advance it instead of sleeping. It is the shared clock of
// src/contract/clock.ts plus timers that can be cleared (a persistent agent's schedule changes).

export type TimerHandle = { readonly id: number };

export interface Clock extends ContractClock {
  /** Runs `action` after `ms`; a pending timer never keeps the process alive. */
  setTimeout(action: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /**
   * Milliseconds that only move forward, at the timers' pace: what a task's steps are timed by.
   * now() is the wall clock, which can be set back or (a test's) stand still. A clock of one's own
   * may leave it out: now() stands in.
   */
  elapsed?(): number;
}

let nextId = 0;

export function systemClock(): Clock {
  const timers = new Map<number, NodeJS.Timeout>();
  return {
    now: () => Date.now(),
    elapsed: () => performance.now(),
    sleep: (ms, signal) => contractClock.sleep(ms, signal),
    setTimeout(action, ms) {
      const handle = { id: ++nextId };
      const timer = setTimeout(() => {
        timers.delete(handle.id);
        action();
      }, ms);
      timer.unref();
      timers.set(handle.id, timer);
      return handle;
    },
    clearTimeout(handle) {
      clearTimeout(timers.get(handle.id));
      timers.delete(handle.id);
    },
  };
}

interface Pending {
  handle: TimerHandle;
  at: number;
  action: () => void;
}

/** A clock that moves only when told to: `advance(ms)` runs every timer due, in time order. */
export class ManualClock implements Clock {
  private time: number;
  private pending: Pending[] = [];

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.time = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.time;
  }

  elapsed(): number {
    return this.time;
  }

  setTimeout(action: () => void, ms: number): TimerHandle {
    const handle = { id: ++nextId };
    this.pending.push({ handle, at: this.time + Math.max(0, ms), action });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending = this.pending.filter((timer) => timer.handle.id !== handle.id);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const handle = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        this.clearTimeout(handle);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward by `ms`, running each timer at its own instant (timers it sets included). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.pending.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.handle.id - b.handle.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((timer) => timer !== due);
      this.time = Math.max(this.time, due.at);
      due.action();
    }
    this.time = end;
  }

  /** How many timers are waiting. */
  get timers(): number {
    return this.pending.length;
  }
}

/** The clock's elapsed() where it has one, else its now(). */
export function elapsedOn(clock: Clock): number {
  return clock.elapsed ? clock.elapsed() : clock.now();
}
