// DNS rebinding (issue 48): a page of another site makes a developer's browser send requests to the
// emulator on 127.0.0.1 under the site's own name. On a loopback bind the emulator answers only
// loopback names in Host (and names allowed with --allowed-host / allowedHosts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { hostGuard } from '../../src/emulator/host-guard.js';
import { agentctl } from '../helpers/cli.js';
import { send } from '../helpers/http.js';
import { start, stopAll } from '../helpers/webhook-listen.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, allowedHosts: ['emulator.test', 'pinned.test:9000'] });
});
afterAll(async () => {
  await emulator.close();
  await stopAll();
});

const asHost = (host: string, path = '/agents/browser-use/', method = 'GET', base = emulator.baseUrl) =>
  send(`${base}${path}`, { method, headers: { host, 'x-api-key': 'emulator-key', 'content-type': 'application/json' }, body: method === 'POST' ? '{"prompt":"from a page"}' : undefined });

describe('emulator: the Host header on a loopback bind', () => {
  it('refuses a foreign Host with 421 and a JSON reason, before any route (control routes too): nothing is created', async () => {
    const port = emulator.port;
    for (const [host, path, method] of [
      [`rebind.evil.example:${port}`, '/tasks/browser-use/', 'POST'],
      ['rebind.evil.example', '/agents/browser-use/', 'GET'],
      [`10.0.0.1:${port}`, '/agents/browser-use/', 'GET'],
      [`localhost.evil.example:${port}`, '/agents/browser-use/', 'GET'],
      [`pinned.test:${port}`, '/agents/browser-use/', 'GET'], // allowed on port 9000 only
    ] as const) {
      const answer = await asHost(host, path, method);
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.text).detail).toMatch(/is not a loopback name: .*--allowed-host NAME/);
    }
    const reset = await send(`http://127.0.0.1:${port}/_emulator/reset`, { method: 'POST', headers: { host: `evil.example:${port}` } });
    expect(reset.status).toBe(421);
    expect(emulator.state.tasks.size).toBe(0);
  });

  it('answers loopback names (any port: a local proxy keeps its own) and the allowed ones', async () => {
    const port = emulator.port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `127.8.9.10:${port}`, `[::1]:${port}`, `0.0.0.0:${port}`, 'LOCALHOST:9999', `emulator.test:${port}`, 'emulator.test', 'pinned.test:9000']) {
      expect((await asHost(host)).status, host).toBe(200);
    }
  });

  it('checks nothing on a wider bind (the user chose to be reached by any name)', () => {
    expect(hostGuard('0.0.0.0')).toBeUndefined();
    expect(hostGuard('::')).toBeUndefined();
    expect(hostGuard('localhost')?.('evil.example')).toBe(false);
    expect(hostGuard('::1')?.('evil.example')).toBe(false);
  });

  it('agentctl emulator --allowed-host NAME lets that name in; a malformed one is refused before it starts', async () => {
    const run = start(['emulator', '--port', '0', '--allowed-host', 'my-box']);
    const base = await run.line(0);
    expect((await asHost('my-box', '/agents/browser-use/', 'GET', base)).status).toBe(200);
    expect((await asHost('other-box', '/agents/browser-use/', 'GET', base)).status).toBe(421);
    await run.stop();
    const bad = await agentctl(['emulator', '--port', '0', '--allowed-host', 'two words']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--allowed-host "two words" is not a host name or name:port');
  });
});
