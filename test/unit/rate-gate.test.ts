import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/contract/clock.js';
import { RateGate } from '../../src/api/rate-gate.js';

/** A clock that moves only when told to. */
function fakeClock() {
  let now = 0;
  const sleepers: Array<{ at: number; wake: () => void }> = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((resolve) => sleepers.push({ at: now + ms, wake: resolve })),
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const sleeper of sleepers.splice(0)) {
      if (sleeper.at <= now) sleeper.wake();
      else sleepers.push(sleeper);
    }
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { clock, advance };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('RateGate', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    const { clock } = fakeClock();
    const gate = new RateGate(2, clock);
    let inFlight = 0;
    let most = 0;
    const request = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick();
      inFlight--;
    };
    await Promise.all(Array.from({ length: 10 }, () => gate.run(request)));
    expect(most).toBe(2);
  });

  it('a pause (a 429 Retry-After) holds every request that has not started, not just one worker', async () => {
    const { clock, advance } = fakeClock();
    const gate = new RateGate(4, clock);
    gate.pause(1000);
    const started: number[] = [];
    const runs = [1, 2, 3].map((n) => gate.run(async () => void started.push(n)));
    await advance(999);
    expect(started).toEqual([]);
    await advance(1);
    await Promise.all(runs);
    expect(started.sort()).toEqual([1, 2, 3]);
  });

  it('the longest pause wins, and Ctrl-C rejects what is still queued', async () => {
    const { clock, advance } = fakeClock();
    const interrupt = new AbortController();
    const gate = new RateGate(1, clock, interrupt.signal);
    gate.pause(500);
    gate.pause(100);
    expect(gate.pausedForMs).toBe(500);
    const first = gate.run(() => new Promise<void>(() => undefined)); // holds the only slot
    const queued = gate.run(async () => 'never');
    await advance(500);
    interrupt.abort('SIGINT');
    await expect(queued).rejects.toBe('SIGINT');
    void first;
  });
});

describe('RateGate with a rate', () => {
  it('starts at most that many requests a second, evenly spaced, however many may be in flight', async () => {
    const { clock, advance } = fakeClock();
    const gate = new RateGate(8, clock, undefined, 4);
    let started = 0;
    const all = Promise.all(Array.from({ length: 6 }, () => gate.run(async () => void started++)));
    await tick();
    const seen: number[] = [started];
    for (let ms = 250; ms <= 1250; ms += 250) {
      await advance(250);
      seen.push(started);
    }
    await all;
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]); // one every 250 ms
  });
});
