import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TASK_DURATION_MS, useEmulator } from './harness.js';

// Many tasks ending at once: the emulator delivers every completion webhook, a few at a time, as the
// service's workers do (unbounded, 100,000 tasks ending together opened a connection each).
const LIMIT = 3;
const TASKS = 40;

describe('completion webhooks of many tasks ending together', () => {
  const h = useEmulator({ webhookConcurrency: LIMIT });
  const received: string[] = [];
  const held: ServerResponse[] = [];
  let open = 0;
  let mostOpen = 0;
  let url = '';
  // Holds each delivery unanswered until LIMIT are open (or every remaining one is), and answers them
  // a moment later: a sender that kept more in flight would be seen with more open meanwhile.
  const server = createServer((req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    res.on('finish', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push((JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id);
      held.push(res);
      if (held.length === LIMIT || received.length === TASKS) {
        const answers = held.splice(0);
        setTimeout(() => answers.forEach((answer) => answer.writeHead(200).end('ok')), 20);
      }
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers every one exactly once, never more than the bound at a time, and records each on its task', async () => {
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i++) ids.push((await h.api<{ id: string }>('POST', '/tasks/browser-use/', { prompt: `task ${i}`, webhook: url })).id);
    h.advance(TASK_DURATION_MS); // all end in the same instant

    await vi.waitFor(() => expect(received).toHaveLength(TASKS), { timeout: 120_000, interval: 10 }); // a hang net: late on a busy machine, never wrong
    expect([...received].sort()).toEqual([...ids].sort());
    expect(mostOpen).toBe(LIMIT);
    await vi.waitFor(async () => {
      for (const id of ids) {
        const task = await h.api<{ webhook_last_status_code: number | null; webhook_last_called_at: string | null }>('GET', `/tasks/browser-use/${id}/`);
        expect(task.webhook_last_status_code).toBe(200);
        expect(task.webhook_last_called_at).not.toBeNull();
      }
    }, { timeout: 120_000, interval: 20 });
  });
});
