// The task steps' queues (src/emulator/lifecycle.ts) with the real clock and clocks that misbehave,
// and what a deleted task leaves behind. Found by a review of the change from a timer per step.
import net from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock, startEmulator, systemClock } from '../../src/emulator/index.js';
import { Lifecycle } from '../../src/emulator/lifecycle.js';
import { State } from '../../src/emulator/state.js';

const HEADERS = { 'content-type': 'application/json', 'x-api-key': 'emulator-key' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('task steps on real and odd clocks', () => {
  it('a create that waits as long as the task runs answers it completed, while another task ends first', async () => {
    const emulator = await startEmulator({ port: 0, taskDurationMs: 1000 }); // wait takes whole seconds
    const create = async (body: object) => (await fetch(`${emulator.baseUrl}/tasks/browser-use/`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) })).json();
    try {
      const earlier: Promise<unknown>[] = [];
      const waits: Promise<unknown>[] = [];
      for (let i = 0; i < 8; i++) {
        earlier.push(create({ prompt: `earlier ${i}` }));
        await sleep(30);
        waits.push(create({ prompt: `waits ${i}`, wait: 1 }));
      }
      for (const answer of await Promise.all(waits)) expect(answer).toMatchObject({ status: 'completed' });
      await Promise.all(earlier);
    } finally {
      await emulator.close();
    }
  });

  /** Starts a task on `lifecycle` and resolves with how long (ms, real time) it ran once it ends (a timer may fire a few ms early). */
  function runFor(state: State, lifecycle: Lifecycle, prompt: string): Promise<number> {
    const task = state.newTask({ agent_id: null, prompt });
    const started = performance.now();
    const ended = new Promise<number>((resolve) => lifecycle.onEnd((done) => done === task && resolve(performance.now() - started)));
    lifecycle.start(task);
    return ended;
  }
  const STILL = { ...systemClock(), now: () => Date.UTC(2026, 0, 1) };

  it('a clock whose now() stands still (stable timestamps) still moves tasks, each its whole duration', async () => {
    const state = new State(STILL);
    const lifecycle = new Lifecycle(state, 300);
    try {
      const first = runFor(state, lifecycle, 'first');
      await sleep(200);
      const second = runFor(state, lifecycle, 'second'); // due 100 ms after the first: not with it
      expect(await first).toBeGreaterThanOrEqual(280);
      expect(await second).toBeGreaterThanOrEqual(280);
    } finally {
      lifecycle.stop();
    }
  });

  it('a wall clock set back a minute neither holds tasks back nor ends the next ones early', async () => {
    const state = new State(systemClock());
    const lifecycle = new Lifecycle(state, 300);
    const real = Date.now.bind(Date);
    let setBack: { mockRestore(): void } | undefined;
    try {
      const first = runFor(state, lifecycle, 'first');
      await sleep(200);
      setBack = vi.spyOn(Date, 'now').mockImplementation(() => real() - 60_000);
      const second = runFor(state, lifecycle, 'second');
      expect(await first).toBeGreaterThanOrEqual(280);
      expect(await second).toBeGreaterThanOrEqual(280);
    } finally {
      setBack?.mockRestore();
      lifecycle.stop();
    }
  });

  it("a wait's end does not end another task early", async () => {
    const state = new State(STILL);
    const lifecycle = new Lifecycle(state, 300);
    try {
      const waited = state.newTask({ agent_id: null, prompt: 'waited [pending]' });
      const wait = lifecycle.waitFor(waited, 400);
      await sleep(350);
      const other = runFor(state, lifecycle, 'other');
      await wait;
      expect(await other).toBeGreaterThanOrEqual(280);
    } finally {
      lifecycle.stop();
    }
  });

  // api/views.py perform_destroy only marks a task deleted; the worker runs it on (and sends its webhook).
  it('a deleted task runs on out of sight, and is let go once it ends', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const clock = new ManualClock();
    const emulator = await startEmulator({ port: 0, clock, taskDurationMs: 24 * 3600 * 1000 });
    try {
      const records: WeakRef<object>[] = [];
      for (let i = 0; i < 50; i++) {
        const { id } = (await (await fetch(`${emulator.baseUrl}/tasks/browser-use/`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ prompt: `p${i}` }) })).json()) as { id: string };
        records.push(new WeakRef(emulator.state.tasks.get(id) as object));
        expect((await fetch(`${emulator.baseUrl}/tasks/browser-use/${id}/`, { method: 'DELETE', headers: HEADERS })).status).toBe(204);
      }
      expect(emulator.state.deletedRunning.size).toBe(50);
      clock.advance(24 * 3600 * 1000);
      expect(emulator.state.deletedRunning.size).toBe(0);
      await sleep(10);
      gc();
      expect(records.filter((record) => record.deref() !== undefined)).toHaveLength(0);
    } finally {
      await emulator.close();
    }
  });

  it('a Host header the URL parser refuses gets the same answer from every route', async () => {
    const emulator = await startEmulator({ port: 0 });
    const send = (head: string, body = '') =>
      new Promise<string>((resolve) => {
        const socket = net.connect(emulator.port, '127.0.0.1');
        let out = '';
        socket.on('data', (data) => (out += data.toString()));
        socket.on('error', () => resolve(out));
        socket.on('close', () => resolve(out));
        socket.write(`${head}\r\nHost: bad host\r\nx-api-key: emulator-key\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      });
    try {
      const create = await send('POST /api/v1/tasks/browser-use/ HTTP/1.1', '{"prompt":"x"}');
      const list = await send('GET /api/v1/tasks/browser-use/?page=1 HTTP/1.1');
      expect(create.split('\r\n')[0]).toBe(list.split('\r\n')[0]);
      expect(emulator.state.tasks.size).toBe(0);
    } finally {
      await emulator.close();
    }
  });
});
