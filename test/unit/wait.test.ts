import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../src/api/schemas/common.js';
import { pollUntilFinished } from '../../src/api/wait.js';

describe('pollUntilFinished', () => {
  it('polls until a final status and reports each change once', async () => {
    const statuses: TaskStatus[] = ['pending', 'pending', 'in_progress', 'completed'];
    const seen: TaskStatus[] = [];
    let calls = 0;
    const outcome = await pollUntilFinished(async () => ({ status: statuses[calls++] as TaskStatus }), {
      intervalMs: 1,
      onStatus: (status) => seen.push(status),
    });
    expect(outcome).toEqual({ finished: true, task: { status: 'completed' } });
    expect(seen).toEqual(['pending', 'in_progress', 'completed']);
    expect(calls).toBe(4);
  });

  it('gives up at the deadline with the last task seen', async () => {
    let clock = 0;
    const outcome = await pollUntilFinished(
      async () => {
        clock += 1000;
        return { status: 'in_progress' as TaskStatus };
      },
      { intervalMs: 1, timeoutMs: 2500, now: () => clock },
    );
    expect(outcome.finished).toBe(false);
  });
});
