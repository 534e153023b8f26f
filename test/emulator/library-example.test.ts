// The vitest example of docs/emulator-library.md, as written there (only the import points at the
// sources): the documented use of the library keeps working.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

let emulator: RunningEmulator;
const clock = new ManualClock(new Date('2026-01-01T09:00:00Z'));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, clock, seed: 42, taskDurationMs: 1000 });
});
afterAll(() => emulator.close());

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': 'emulator-key', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

it('follows a task to its result', async () => {
  const { body: task } = await api('POST', '/tasks/browser-use/', { prompt: 'Find the weather in Oslo' });
  expect(task.status).toBe('pending');
  emulator.advance(1000); // the task runs to its end, on the emulator's clock
  const { body: result } = await api('GET', `/tasks/browser-use/${task.id}/result/`);
  expect(result).toMatchObject({ status: 'completed' });
});

it('survives a throttled service', async () => {
  emulator.faults.set('POST /tasks/* => 429@100%/3');
  const { status } = await api('POST', '/tasks/browser-use/', { prompt: 'x' });
  expect(status).toBe(429);
  emulator.faults.clear();
  expect(emulator.requests.at(-1)).toMatchObject({ method: 'POST', status: 429, fault: '429' });
});

it('starts each test from nothing', async () => {
  emulator.reset();
  expect((await api('GET', '/tasks/browser-use/')).body.count).toBe(0);
});
