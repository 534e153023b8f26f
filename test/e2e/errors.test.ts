import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { agentctl, against } from '../helpers/cli.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 300 });
});
afterAll(() => emulator.close());

describe('exit codes and error rendering', () => {
  it('exit 3 for a wrong key (403 body says so), with a hint and no key in the output', async () => {
    const result = await against(emulator.baseUrl, 'wrong-key-123')(['agents', 'list']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('Invalid API key');
    expect(result.stderr).toContain('hint:');
    expect(result.stderr).not.toContain('wrong-key-123');
  });

  it('exit 3 when no key is configured for a non-default address', async () => {
    const result = await agentctl(['tasks', 'list'], { env: { AGENTCTL_BASE_URL: emulator.baseUrl } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('no API key is configured');
  });

  it('exit 8 when the service cannot be reached, suggesting the emulator at the default address', async () => {
    const stub = await stubServer(() => undefined);
    const port = new URL(stub.baseUrl).port;
    await stub.close();
    const result = await agentctl(['agents', 'list'], { env: { AGENTCTL_BASE_URL: `http://127.0.0.1:${port}/api/v1`, AGENTCTL_API_KEY: 'k' } });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr).toContain('after 4 attempts');
  });

  it('exit 8 on a request timeout, without re-sending a create', async () => {
    const stub = await stubServer(() => undefined); // never answers
    const result = await against(stub.baseUrl)(['tasks', 'create', 'slow', '--timeout', '0.3']);
    await stub.close();
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('timed out');
    expect(result.stderr).toContain('may still have been carried out');
    expect(stub.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('renders 402 (no credits) and 500 (server error) bodies, exit 1', async () => {
    const cli = against(emulator.baseUrl);
    const credits = await cli(['tasks', 'create', '[no-credits] x']);
    expect(credits.exitCode).toBe(1);
    expect(credits.stderr).toContain('402');
    expect(credits.stderr).toContain('enough task credits');
    const server = await cli(['tasks', 'create', '[server-error] x']);
    expect(server.exitCode).toBe(1);
    expect(server.stderr).toContain('500');
    expect(server.stderr).toContain('Internal server error.');
    expect(server.stderr).toMatch(/error id: [0-9a-f-]+/);
  });

  it('handles an HTML 502 from a proxy (retried for GET, then exit 1, no crash)', async () => {
    const stub = await stubServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>');
    });
    const result = await against(stub.baseUrl)(['tasks', 'list', '--json']);
    await stub.close();
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('502 Bad Gateway (non-JSON response)');
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(stub.requests.length).toBe(4);
  });

  it('honours Retry-After on 429, also for a create', async () => {
    const stub = await stubServer((req, res, index) => {
      if (index === 0) return sendJson(res, 429, { detail: 'slow down' }, { 'retry-after': '0' });
      sendJson(res, 201, { id: '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', status: 'pending', prompt: 'x' });
    });
    const result = await against(stub.baseUrl)(['tasks', 'create', 'x', '--json']);
    await stub.close();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(stub.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('does not re-POST a create after a 503', async () => {
    const stub = await stubServer((_req, res) => sendJson(res, 503, { detail: 'down' }));
    const result = await against(stub.baseUrl)(['tasks', 'create', 'x']);
    await stub.close();
    expect(result.exitCode).toBe(1);
    expect(stub.requests).toHaveLength(1);
  });

  it('reports a response of the wrong shape instead of crashing', async () => {
    const stub = await stubServer((_req, res) => sendJson(res, 200, { count: 1, results: 'nope' }));
    const result = await against(stub.baseUrl)(['agents', 'list']);
    await stub.close();
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('unexpected response');
  });

  it('404 with an HTML body for an unknown route is exit 4', async () => {
    const result = await against(emulator.baseUrl)(['api', 'GET', '/no/such/route/']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('404');
  });

  it('usage errors exit 2: unknown command, unknown flag, missing argument', async () => {
    expect((await agentctl(['frobnicate'])).exitCode).toBe(2);
    expect((await agentctl(['tasks', 'list', '--frob'])).exitCode).toBe(2);
    expect((await agentctl(['tasks', 'get'])).exitCode).toBe(2);
    expect((await agentctl(['tasks', 'list', '--json', '--jsonl'])).exitCode).toBe(2);
  });
});
