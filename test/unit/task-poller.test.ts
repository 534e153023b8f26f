import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { RateGate } from '../../src/api/rate-gate.js';
import type { TaskResult } from '../../src/api/schemas/task.js';
import { TaskPoller } from '../../src/api/task-poller.js';
import type { Clock } from '../../src/contract/clock.js';

/** A clock whose sleeps end at once but move time forward by what was asked. */
function jumpingClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

type Task = { id: string; scope: Record<string, never> };
const task = (id: string): Task => ({ id, scope: {} });

function poller(clock: Clock, fetch: (task: Task) => Promise<TaskResult>, maxOutageMs = 60_000) {
  const ended: Array<[string, string]> = [];
  const gate = new RateGate(4, clock);
  const instance = new TaskPoller<Task>({
    gate,
    clock,
    fetch,
    maxIntervalMs: 2000,
    maxOutageMs,
    onEnd: (polled, outcome) => ended.push([polled.id, 'result' in outcome ? outcome.result.status : `error ${outcome.error.message}`]),
  });
  return { instance, ended, gate };
}

describe('TaskPoller', () => {
  it('polls every pending task each round until each ends, spacing rounds out with the time waited', async () => {
    const clock = jumpingClock();
    const polls = new Map<string, number>();
    const endsAfter: Record<string, number> = { a: 1, b: 3, c: 5 };
    const { instance, ended } = poller(clock, async ({ id }) => {
      const n = (polls.get(id) ?? 0) + 1;
      polls.set(id, n);
      return { id, status: n >= (endsAfter[id] ?? 0) ? 'completed' : 'in_progress' };
    });
    for (const id of ['a', 'b', 'c']) instance.add(task(id));
    instance.close();
    await instance.run();
    expect(ended.map(([id]) => id)).toEqual(['a', 'b', 'c']);
    expect(Object.fromEntries(polls)).toEqual({ a: 1, b: 3, c: 5 }); // no poll after a task ended
    expect(clock.slept[0]).toBe(100);
    expect(clock.slept.every((ms, i) => i === 0 || ms >= (clock.slept[i - 1] ?? 0))).toBe(true);
  });

  it('an unknown id ends with its error; the others keep going', async () => {
    const clock = jumpingClock();
    const { instance, ended } = poller(clock, async ({ id }) => {
      if (id === 'gone') throw new ApiError(404, { detail: 'Not found.' }, 'GET', 'http://x/');
      return { id, status: 'failed' };
    });
    instance.add(task('gone'));
    instance.add(task('ok'));
    instance.close();
    await instance.run();
    expect(ended).toEqual([
      ['gone', 'error the service answered 404 (not found): Not found.'],
      ['ok', 'failed'],
    ]);
  });

  it('rides out an outage with backoff, and a 429 pauses the shared gate', async () => {
    const clock = jumpingClock();
    let calls = 0;
    const { instance, ended, gate } = poller(clock, async ({ id }) => {
      calls++;
      if (calls === 1) throw new ApiError(429, { detail: 'slow down' }, 'GET', 'http://x/');
      if (calls <= 3) throw new NetworkError('cannot reach http://x: ECONNRESET');
      return { id, status: 'completed' };
    });
    instance.add(task('a'));
    instance.close();
    const paused: number[] = [];
    const original = gate.pause.bind(gate);
    gate.pause = (ms) => {
      paused.push(ms);
      original(ms);
    };
    await instance.run();
    expect(ended).toEqual([['a', 'completed']]);
    expect(paused).toEqual([1000]);
  });

  it('gives up with the last error once the outage outlasts maxOutageMs', async () => {
    const clock = jumpingClock();
    const { instance } = poller(clock, async () => {
      throw new NetworkError('cannot reach http://x: ECONNREFUSED');
    }, 5_000);
    instance.add(task('a'));
    instance.close();
    await expect(instance.run()).rejects.toThrow('ECONNREFUSED');
    expect(clock.now()).toBeGreaterThanOrEqual(5_000);
  });

  it('polls each task by its own age: one created later is polled often while the older one is polled every maxIntervalMs', async () => {
    const clock = jumpingClock();
    const polls: Record<string, number[]> = { old: [], young: [] };
    const { instance } = poller(clock, async ({ id }) => {
      const now = clock.now();
      polls[id]?.push(now);
      if (id === 'old' && now >= 10_000 && polls.young?.length === 0) instance.add(task('young'));
      return { id, status: now >= 20_000 ? 'completed' : 'in_progress' };
    });
    instance.add(task('old'));
    instance.close();
    await instance.run();
    const inWindow = (times: number[] = []) => times.filter((at) => at >= 10_000 && at < 20_000).length;
    expect(inWindow(polls.old)).toBeLessThanOrEqual(6); // every 2 s
    expect(inWindow(polls.young)).toBeGreaterThan(2 * inWindow(polls.old)); // from 0.1 s, growing
  });

  it('a task whose webhook is awaited is polled only every everyMs, and at once when poked (also when poked before it was added)', async () => {
    const clock = jumpingClock();
    const polled: Array<[string, number]> = [];
    const { instance, ended } = poller(clock, async ({ id }) => {
      polled.push([id, clock.now()]);
      return { id, status: clock.now() >= 5_000 ? 'completed' : 'in_progress' };
    });
    instance.poke('early'); // its webhook beat the create's answer
    instance.add(task('early'), 60_000);
    instance.add(task('slow'), 60_000);
    instance.close();
    const running = instance.run();
    await new Promise((resolve) => setImmediate(resolve));
    instance.poke('slow');
    await running;
    expect(polled.filter(([id]) => id === 'early')[0]).toEqual(['early', 0]);
    expect(polled.filter(([id]) => id === 'slow').length).toBeLessThanOrEqual(2); // when poked, then by everyMs
    expect(ended.map(([id]) => id).sort()).toEqual(['early', 'slow']);
  });
});
