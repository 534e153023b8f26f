import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/emulator/clock.js';
import { excerpt } from '../../src/emulator/lifecycle.js';
import { exampleFor, SCHEMA_INSTANCE_BOUNDS } from '../../src/emulator/schema-instance.js';
import { TASK_DURATION_MS, useEmulator } from './harness.js';

const h = useEmulator();

describe('result text', () => {
  it('ends on a whole word with an ellipsis when the prompt is cut, never mid-word or on a space', () => {
    const prompt = 'Find the three cheapest flights from Oslo to Lisbon in March and list them with prices';
    const text = excerpt(prompt, 60);
    expect(text).toBe('Find the three cheapest flights from Oslo to Lisbon in March…');
    expect(excerpt('Find the three cheapest flights from Oslo to Lisbon in the spring', 60)).toBe('Find the three cheapest flights from Oslo to Lisbon in the…');
    expect(excerpt('short prompt', 60)).toBe('short prompt');
    expect(excerpt('x'.repeat(80), 60)).toBe(`${'x'.repeat(59)}…`);
    expect(excerpt('Compare: prices, dates, airlines and more', 10)).toBe('Compare…');
  });

  it('is what a completed task returns', async () => {
    const task = await h.api<{ id: string }>('POST', '/tasks/browser-use/', { prompt: 'Find the three cheapest flights from Oslo to Lisbon in March and list them with prices' });
    h.advance(TASK_DURATION_MS);
    const result = await h.api<{ result: string }>('GET', `/tasks/browser-use/${task.id}/result/`);
    expect(result.result).toBe('Emulated result for: Find the three cheapest flights from Oslo to Lisbon in March…');
  });
});

describe('output_schema examples are bounded', () => {
  it('minItems: 1e9 gives a capped array instead of running out of memory', async () => {
    const value = exampleFor({ type: 'array', minItems: 1e9, items: { type: 'string' } }) as unknown[];
    expect(value).toHaveLength(SCHEMA_INSTANCE_BOUNDS.MAX_ITEMS);
    const nested = exampleFor({ type: 'array', minItems: 1e9, items: { type: 'array', minItems: 1e9, items: { type: 'array', minItems: 1e9 } } });
    expect(JSON.stringify(nested).length).toBeLessThan(1_000_000);
    expect(exampleFor({ type: 'string', minLength: 1e9 })).toHaveLength(SCHEMA_INSTANCE_BOUNDS.MAX_STRING);
    expect(exampleFor({ type: 'integer', minimum: Number.POSITIVE_INFINITY })).toBe(42);
  });

  it('a task whose schema asks for a billion items completes with a capped result, and the emulator keeps answering', async () => {
    const schema = { type: 'object', properties: { items: { type: 'array', minItems: 1_000_000_000, items: { type: 'object', properties: { name: { type: 'string' } } } } } };
    const task = await h.api<{ id: string }>('POST', '/tasks/browser-use/', { prompt: 'many', output_schema: schema });
    h.advance(TASK_DURATION_MS);
    const result = await h.api<{ status: string; result: { items: unknown[] } }>('GET', `/tasks/browser-use/${task.id}/result/`);
    expect(result.status).toBe('completed');
    expect(result.result.items).toHaveLength(SCHEMA_INSTANCE_BOUNDS.MAX_ITEMS);
    expect((await h.raw('GET', '/ping/')).status).toBe(200);
  });
});

describe('ManualClock', () => {
  it('runs timers in time order, including ones set while advancing, and sleeps on it', async () => {
    const clock = new ManualClock(0);
    const order: string[] = [];
    clock.setTimeout(() => order.push('b'), 20);
    clock.setTimeout(() => {
      order.push('a');
      clock.setTimeout(() => order.push('a2'), 5);
    }, 10);
    const cancelled = clock.setTimeout(() => order.push('never'), 1);
    clock.clearTimeout(cancelled);
    const slept = clock.sleep(30).then(() => order.push('slept'));
    clock.advance(30);
    await slept;
    expect(order).toEqual(['a', 'a2', 'b', 'slept']);
    expect(clock.now()).toBe(30);
  });
});

describe('task lifecycle at scale', () => {
  it('each task moves at its own time after its create, a deleted one does nothing, and 200 tasks wait on one timer per step', async () => {
    const before = h.clock.timers;
    const first = await h.api<{ id: string }>('POST', '/tasks/browser-use/', { prompt: 'first' });
    h.advance(TASK_DURATION_MS / 2);
    const second = await h.api<{ id: string }>('POST', '/tasks/browser-use/', { prompt: '[fail] second' });
    const gone = await h.api<{ id: string }>('POST', '/tasks/browser-use/', { prompt: 'deleted' });
    await h.raw('DELETE', `/tasks/browser-use/${gone.id}/`);
    for (let i = 0; i < 200; i++) await h.api('POST', '/tasks/browser-use/', { prompt: `bulk ${i}` });
    expect(h.clock.timers - before).toBeLessThanOrEqual(2);

    const status = async (id: string) => (await h.api<{ status: string }>('GET', `/tasks/browser-use/${id}/`)).status;
    h.advance(TASK_DURATION_MS / 2); // the first has run its full time, the second half of it
    expect(await status(first.id)).toBe('completed');
    expect(await status(second.id)).toBe('in_progress');
    h.advance(TASK_DURATION_MS / 2);
    expect(await status(second.id)).toBe('failed');
    expect((await h.raw('GET', `/tasks/browser-use/${gone.id}/`)).status).toBe(404);
    expect(h.clock.timers).toBe(before);
  });
});
