import { send } from './http.js';

/** Direct requests to a service under test, for arranging data faster than through the CLI. */
export async function apiRequest<T = unknown>(baseUrl: string, method: string, path: string, body?: unknown, apiKey = 'emulator-key'): Promise<T> {
  const { status, text } = await send(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (status < 200 || status > 299) throw new Error(`${method} ${path} answered ${status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A wait for an event, never a judge of speed: on a busy machine (a 2-core CI runner, another suite
 * beside this one) events come late, but they come. Whatever deadline a caller names, the wait lasts
 * at least this long; it is there only to name what never came, before the test's own time limit.
 */
const EVENT_WAIT_MS = 120_000;

/** Polls until `check` returns a value, or fails naming `what` after the deadline: no fixed sleeps in tests. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = EVENT_WAIT_MS, what = 'condition'): Promise<T> {
  const deadline = Date.now() + Math.max(timeoutMs, EVENT_WAIT_MS);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
