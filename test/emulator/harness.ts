import { afterAll, beforeAll } from 'vitest';
import { ManualClock, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { send } from '../helpers/http.js';

// An emulator in this process on port 0 whose time moves only when a test advances it: task
// lifecycles, waits and webhook timeouts run on the ManualClock, so no test sleeps.

export interface Raw {
  status: number;
  body: unknown;
  contentType: string | null;
  headers: Headers;
}

export interface Harness {
  readonly emulator: RunningEmulator;
  readonly clock: ManualClock;
  /** Any request; the body is parsed when the answer is JSON. `rawBody` sends text as it is. */
  raw(method: string, path: string, body?: unknown, init?: { rawBody?: string; apiKey?: string | null; headers?: Record<string, string> }): Promise<Raw>;
  /** A request that must succeed (2xx); its parsed body. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  /** Moves the emulator's time forward, running every timer due (tasks start, end...). */
  advance(ms: number): void;
}

export const TASK_DURATION_MS = 1000;

/** Registers beforeAll/afterAll that start and stop an emulator with a ManualClock. */
export function useEmulator(options: EmulatorOptions = {}): Harness {
  const clock = new ManualClock(new Date('2026-03-02T10:00:00.000Z'));
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, taskDurationMs: TASK_DURATION_MS, clock, ...options });
  });
  afterAll(() => emulator?.close());

  const raw: Harness['raw'] = async (method, path, body, init = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
    if (init.apiKey !== null) headers['x-api-key'] = init.apiKey ?? 'emulator-key';
    const current = harness.emulator;
    const { status, headers: answered, text } = await send(path.startsWith('http') ? path : `${current.baseUrl}${path}`, {
      method,
      headers,
      body: init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const contentType = answered.get('content-type');
    return { status, body: text && contentType?.includes('json') ? JSON.parse(text) : text, contentType, headers: answered };
  };

  const harness: Harness = {
    get emulator() {
      if (!emulator) throw new Error('the emulator is not running (use the harness inside tests)');
      return emulator;
    },
    clock,
    raw,
    async api<T>(method: string, path: string, body?: unknown) {
      const answer = await raw(method, path, body);
      if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as T;
    },
    advance: (ms) => clock.advance(ms),
  };
  return harness;
}
