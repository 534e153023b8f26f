import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import type { TaskStatus } from '../../src/contract/enums.js';
import { pollDelayMs, pollsInWait } from '../../src/api/wait.js';
import { waitForTask, type WaitEvent } from '../../src/core/wait.js';
import { FakeClock } from '../helpers/fake-clock.js';

type Step = TaskStatus | Error;
const task = (status: TaskStatus) => ({ status });

/** A poll that answers the steps in order (the last one for ever), each taking `costMs` of fake time. */
function script(clock: FakeClock, steps: Step[], costMs = 0) {
  let calls = 0;
  const fetchTask = async () => {
    const step = steps[Math.min(calls++, steps.length - 1)] as Step;
    clock.advance(costMs);
    if (step instanceof Error) throw step;
    return task(step);
  };
  return { fetchTask, calls: () => calls };
}

const unreachable = () => new NetworkError('cannot reach http://127.0.0.1:1: ECONNREFUSED');

describe('waitForTask', () => {
  it('polls until a final status and reports each change once', async () => {
    const clock = new FakeClock();
    const poll = script(clock, ['pending', 'pending', 'in_progress', 'completed']);
    const events: WaitEvent<{ status: TaskStatus }>[] = [];
    const outcome = await waitForTask({}, { requestTimeoutMs: 30_000, fetchTask: poll.fetchTask, clock, onEvent: (event) => events.push(event) });
    expect(outcome).toEqual({ kind: 'finished', task: { status: 'completed' } });
    expect(events.map((event) => event.type === 'status' && event.status)).toEqual(['pending', 'in_progress', 'completed']);
    expect(poll.calls()).toBe(4);
  });

  it('starts fast and backs off to the cap', () => {
    expect(pollDelayMs(0)).toBe(100);
    expect(pollDelayMs(3000)).toBe(400);
    expect(pollDelayMs(60_000)).toBe(2000);
    expect(pollDelayMs(60_000, 5000)).toBe(5000);
    // The figure --help states: a 10-minute wait costs about 320 requests at the default cap.
    expect(pollsInWait(600_000)).toBe(322);
  });

  it('gives up at the deadline, never sleeping past it', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const outcome = await waitForTask({ deadline: clock.now() + 2500 }, { requestTimeoutMs: 30_000, fetchTask: script(clock, ['in_progress']).fetchTask, clock });
    expect(outcome).toEqual({ kind: 'timed-out', task: { status: 'in_progress' } });
    expect(clock.now() - start).toBe(2500);
  });

  it("caps each poll by what is left of the wait, and a poll the deadline cut short is the wait running out, not an outage", async () => {
    const clock = new FakeClock();
    const limits: number[] = [];
    const events: string[] = [];
    const fetchTask = async (timeoutMs: number) => {
      limits.push(timeoutMs);
      if (limits.length === 1) return task('pending');
      clock.advance(timeoutMs); // the answer hangs until the poll's own limit ends it
      throw new NetworkError('GET http://x/ timed out', undefined, undefined, false, false, true);
    };
    const start = clock.now();
    const outcome = await waitForTask({ deadline: start + 1000 }, { requestTimeoutMs: 30_000, fetchTask, clock, onEvent: (event) => events.push(event.type) });
    expect(outcome).toEqual({ kind: 'timed-out', task: { status: 'pending' } });
    expect(limits).toEqual([1000, 900]); // the first poll at once, the second after 100 ms
    expect(clock.now() - start).toBe(1000);
    expect(events).toEqual(['status']); // no "unreachable"
  });

  it('rides out six 502 pages and a refused connection, telling once when it started and when it ended', async () => {
    const clock = new FakeClock();
    const bad = () => new ApiError(502, '<html><title>502 Bad Gateway</title></html>', 'GET', 'http://x/');
    const poll = script(clock, ['in_progress', bad(), bad(), bad(), bad(), bad(), bad(), unreachable(), 'completed']);
    const events: string[] = [];
    const outcome = await waitForTask({}, { requestTimeoutMs: 30_000, fetchTask: poll.fetchTask, clock, onEvent: (event) => events.push(event.type) });
    expect(outcome.kind).toBe('finished');
    expect(events).toEqual(['status', 'unreachable', 'reachable', 'status']);
  });

  it('caps the outage backoff at 10 s', async () => {
    const clock = new FakeClock();
    const steps: Step[] = ['in_progress', ...Array.from({ length: 30 }, unreachable), 'completed'];
    await waitForTask({ maxOutageMs: 3_600_000 }, { requestTimeoutMs: 30_000, fetchTask: script(clock, steps).fetchTask, clock, random: () => 1 });
    expect(Math.max(...clock.sleeps)).toBe(10_000);
  });

  it('gives up after the longest outage with the last error', async () => {
    const clock = new FakeClock();
    const poll = script(clock, ['in_progress', unreachable()], 1000);
    const outcome = await waitForTask({ maxOutageMs: 60_000 }, { requestTimeoutMs: 30_000, fetchTask: poll.fetchTask, clock });
    expect(outcome.kind).toBe('outage');
    if (outcome.kind !== 'outage') return;
    expect(outcome.error).toBeInstanceOf(NetworkError);
    expect(clock.now() - outcome.since).toBeGreaterThanOrEqual(60_000);
    expect(clock.now() - outcome.since).toBeLessThan(62_000);
  });

  it('the deadline wins over the outage allowance', async () => {
    const clock = new FakeClock();
    const outcome = await waitForTask({ deadline: clock.now() + 5000 }, { requestTimeoutMs: 30_000, fetchTask: script(clock, [unreachable()]).fetchTask, clock });
    expect(outcome).toEqual({ kind: 'timed-out', task: undefined });
  });

  it('honours a 429 Retry-After instead of hammering, and stops at once when asked to wait past the outage limit', async () => {
    const clock = new FakeClock();
    const limited = (seconds: number) => new ApiError(429, { detail: 'slow down' }, 'GET', 'http://x/', { ms: seconds * 1000, at: clock.now() });
    const poll = script(clock, ['in_progress', limited(30), 'completed']);
    await waitForTask({}, { requestTimeoutMs: 30_000, fetchTask: poll.fetchTask, clock });
    expect(clock.sleeps).toContain(30_000);

    const clock2 = new FakeClock();
    const poll2 = script(clock2, ['in_progress', new ApiError(429, {}, 'GET', 'http://x/', { ms: 3_600_000, at: clock2.now() })]);
    const outcome = await waitForTask({}, { requestTimeoutMs: 30_000, fetchTask: poll2.fetchTask, clock: clock2 });
    expect(outcome.kind).toBe('outage');
    expect(poll2.calls()).toBe(2);
  });

  it('does not ride out errors that will not go away (404, 401)', async () => {
    const clock = new FakeClock();
    const gone = new ApiError(404, { detail: 'Not found.' }, 'GET', 'http://x/');
    await expect(waitForTask({}, { requestTimeoutMs: 30_000, fetchTask: script(clock, [gone]).fetchTask, clock })).rejects.toBe(gone);
  });

  it('stops the moment its signal aborts', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const poll = script(clock, ['in_progress']);
    const fetchTask = async () => {
      if (poll.calls() === 3) controller.abort(new Error('interrupted'));
      return poll.fetchTask();
    };
    await expect(waitForTask({}, { requestTimeoutMs: 30_000, fetchTask, clock, signal: controller.signal })).rejects.toThrow('interrupted');
    expect(poll.calls()).toBe(4);
  });
});
