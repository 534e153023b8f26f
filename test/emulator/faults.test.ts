import { describe, expect, it } from 'vitest';
import { Faults, FaultSpecError, parseFaults } from '../../src/emulator/faults.js';
import { useEmulator } from './harness.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentctl, tempDir } from '../helpers/cli.js';

// Faults on demand (--faults SPEC, the library's faults.set, PUT /_emulator/faults): what a script
// talking to the emulator sees, on a ManualClock and a fixed seed, so every run draws the same faults.

describe('fault spec grammar', () => {
  it('reads rates, Retry-After, durations, outages and per-route scopes', () => {
    expect(parseFaults('503@10%, 429@0.5/3, reset@1%; latency=200ms, slow=2s; outage=1m-90s')).toEqual([
      { faults: [{ kind: 'status', status: 503, rate: 0.1 }, { kind: 'status', status: 429, rate: 0.5, retryAfter: 3 }, { kind: 'reset', rate: 0.01 }] },
      { faults: [{ kind: 'latency', ms: 200 }, { kind: 'slow', ms: 2000 }] },
      { faults: [{ kind: 'outage', fromMs: 60_000, toMs: 90_000 }] },
    ]);
    expect(parseFaults('post /tasks/* => 500@100%')).toEqual([{ method: 'POST', path: '/tasks/*', faults: [{ kind: 'status', status: 500, rate: 1 }] }]);
    expect(parseFaults('')).toEqual([]);
  });

  it('names the part it cannot read', () => {
    for (const [spec, part] of [['404@10%', '"404@10%" is not a fault'], ['503@150%', 'the rate must be'], ['500@1%/2', 'only 429'], ['outage=10s-5s', 'must end after'], ['tasks => 500@1%', 'is not a scope'], ['slow=1441m', 'longer than the most a fault lasts, 24 h']] as const) {
      expect(() => parseFaults(spec), spec).toThrow(FaultSpecError);
      expect(() => parseFaults(spec), spec).toThrow(part);
    }
  });

  it('draws the same faults from the same seed, and about the asked rate', () => {
    const sequence = (seed: number) => {
      const faults = new Faults('503@25%', seed);
      return Array.from({ length: 400 }, () => faults.decide('GET', '/ping/', 0).status ?? 200);
    };
    expect(sequence(7)).toEqual(sequence(7));
    expect(sequence(7)).not.toEqual(sequence(8));
    const failed = sequence(7).filter((status) => status === 503).length;
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
  });
});

describe('faults on the wire', () => {
  const h = useEmulator({ seed: 11 });

  it('answers 429 with Retry-After, 500 as the service, 502/503 as its proxy, only on the routes named', async () => {
    h.emulator.faults.set('POST /tasks/browser-use/ => 429@100%/4; GET /agents/* => 503@100%');
    const throttled = await h.raw('POST', '/tasks/browser-use/', { prompt: 'x' });
    expect(throttled).toMatchObject({ status: 429, body: { detail: 'Request was throttled. Expected available in 4 seconds.' } });
    expect(throttled.headers.get('retry-after')).toBe('4');
    const down = await h.raw('GET', '/agents/');
    expect(down.status).toBe(503);
    expect(down.contentType).toBe('text/html');
    expect((await h.raw('GET', '/ping/')).status).toBe(200);
    h.emulator.faults.set('500@100%');
    expect((await h.raw('GET', '/ping/')).body).toEqual({ detail: 'Internal server error.', error_id: expect.any(String) });
    h.emulator.faults.set('502@1');
    expect((await h.raw('GET', '/ping/')).status).toBe(502);
    h.emulator.faults.clear();
    expect((await h.raw('GET', '/ping/')).status).toBe(200);
  });

  it('cuts the connection on reset, and logs each fault in the request log', async () => {
    h.emulator.faults.set('reset@100%');
    await expect(h.raw('GET', '/ping/')).rejects.toThrow();
    h.emulator.faults.clear();
    expect(h.emulator.requests.at(-1)).toMatchObject({ method: 'GET', path: '/ping/', fault: 'reset' });
  });

  it('answers 503 during an outage window of the emulator clock, and normally after it', async () => {
    h.emulator.faults.set('outage=0ms-10s');
    expect((await h.raw('GET', '/ping/')).status).toBe(503);
    h.advance(10_000);
    expect((await h.raw('GET', '/ping/')).status).toBe(200);
    h.emulator.faults.clear();
  });

  it('adds latency and trickles a slow body on the emulator clock', async () => {
    h.emulator.faults.set('latency=500ms, slow=1s');
    const answer = h.raw('GET', '/ping/');
    for (let i = 0; i < 40 && h.clock.timers === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    h.advance(500);
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      h.advance(100);
    }
    expect((await answer).body).toEqual({ pong: true, user: 'emulator@example.com' });
    h.emulator.faults.clear();
  });

  it('is set, read and cleared at run time over /_emulator/faults (no API key, outside the service\'s paths)', async () => {
    const control = `${h.emulator.baseUrl.replace(/\/api\/v1$/, '')}/_emulator/faults`;
    const put = await fetch(control, { method: 'PUT', body: JSON.stringify({ spec: '503@100%', seed: 5 }) });
    expect(await put.json()).toEqual({ spec: '503@100%', seed: 5 });
    expect((await h.raw('GET', '/ping/')).status).toBe(503);
    expect(await (await fetch(control)).json()).toEqual({ spec: '503@100%', seed: 5 });
    const bad = await fetch(control, { method: 'PUT', body: 'teapot@1%' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toContain('is not a fault');
    const long = await fetch(control, { method: 'PUT', body: 'latency=99999999999999999999m' });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { detail: string }).detail).toContain('"latency=99999999999999999999m": "99999999999999999999m" is longer than the most a fault lasts');
    expect(() => h.emulator.faults.set('latency=1500m')).toThrow('longer than the most');
    expect((await fetch(control, { method: 'DELETE' })).status).toBe(200);
    expect((await h.raw('GET', '/ping/')).status).toBe(200);
  });
});

describe('agentctl emulator --faults', () => {
  it('refuses a spec it cannot read before starting (exit 2), naming the part', async () => {
    const result = await agentctl(['emulator', '--port', '0', '--faults', '503@10%, oops']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('"oops" is not a fault');
  });

  it('refuses a duration longer than a day (a timer that long would fire at once), naming the part', async () => {
    const result = await agentctl(['emulator', '--port', '0', '--faults', 'latency=99999999999999999999m']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--faults: "latency=99999999999999999999m": "99999999999999999999m" is longer than the most a fault lasts, 24 h');
  });
});

describe('agentctl emulator --state', () => {
  it('refuses a file that is not a saved state (exit 2), saying so', async () => {
    const file = join(tempDir('agentctl-state-'), 'state.json');
    writeFileSync(file, '{"tasks": oops');
    const result = await agentctl(['emulator', '--port', '0', '--state', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('is not a state file the emulator wrote');
  });

  it('refuses, before starting, a file in a folder that does not exist (exit 2): the records could not be saved', async () => {
    const file = join(tempDir('agentctl-state-'), 'missing', 'state.json');
    const result = await agentctl(['emulator', '--port', '0', '--state', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`--state: cannot save to ${file}: the folder ${dirname(file)} does not exist`);
    expect(result.stdout).toBe('');
  });

  it('says so, without calling it a bug, when the save at stop fails (exit 1)', async () => {
    const folder = join(tempDir('agentctl-state-'), 'state');
    mkdirSync(folder);
    const file = join(folder, 'state.json');
    const stop = new AbortController();
    // Started, then its folder vanishes: the save on SIGTERM cannot be made.
    const onStdout = (text: string) => {
      if (!text.includes('\n') || stop.signal.aborted) return;
      rmSync(folder, { recursive: true });
      stop.abort('SIGTERM');
    };
    const result = await agentctl(['emulator', '--port', '0', '--state', file], { signal: stop.signal, onStdout });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`--state: cannot save the records to ${file}`);
    expect(result.stderr).toContain('the changes since the last save (at most a few seconds ago) are lost');
    expect(result.stderr).not.toContain('this is a bug');
  });
});
