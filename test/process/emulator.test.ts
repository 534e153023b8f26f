import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { BIN, against } from '../helpers/cli.js';
import { stubServer } from '../helpers/stub-server.js';

describe('agentctl emulator (the command)', () => {
  it('prints its base URL first on stdout, honours --api-key, --latency and --task-duration, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--api-key', 'cmd-key', '--latency', '40', '--task-duration', '100'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const baseUrl = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const cli = against(baseUrl, 'cmd-key');
    const started = Date.now();
    const ping = await cli(['api', 'GET', '/ping/']);
    expect(ping.exitCode).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    const followed = await cli(['tasks', 'create', 'quick', '--follow', '--interval', '0.05']);
    expect(followed.exitCode).toBe(0);
    expect((await against(baseUrl, 'emulator-key')(['api', 'GET', '/ping/'])).exitCode).toBe(3);
    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    expect(stderr).toContain('API key: the one given with --api-key');
    expect(stderr).toContain(`export AGENTCTL_BASE_URL=${baseUrl}`);
    expect(stderr).not.toContain('cmd-key');
  });

  it('prints its default key at start', async () => {
    const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const baseUrl = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    await eventually(() => (stderr.includes('export AGENTCTL_API_KEY') ? true : undefined), 10_000, 'the export lines');
    expect(stderr).toContain('API key: emulator-key');
    // On another port than the default, the two lines to copy into a shell (stdout keeps the URL alone).
    expect(stderr).toContain(`\nexport AGENTCTL_BASE_URL=${baseUrl}\nexport AGENTCTL_API_KEY=emulator-key\n`);
    expect((await against(baseUrl, 'emulator-key')(['api', 'GET', '/ping/'])).exitCode).toBe(0);
    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });
});

describe('emulator behaviour a script relies on', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
  });
  afterAll(() => emulator.close());

  it('delivers the completion webhook once, with the documented body and user agent, and records it', async () => {
    const receiver = await stubServer((_req, res) => {
      res.writeHead(200);
      res.end('ok');
    });
    const cli = against(emulator.baseUrl);
    const done = JSON.parse((await cli(['tasks', 'create', 'hook me', '--webhook', `${receiver.baseUrl}/hook`, '--json'])).stdout);
    const failed = JSON.parse((await cli(['tasks', 'create', '[fail] hook me', '--webhook', `${receiver.baseUrl}/hook`, '--json'])).stdout);
    const cancelled = JSON.parse((await cli(['tasks', 'create', '[hang] hook me', '--webhook', `${receiver.baseUrl}/hook`, '--json'])).stdout);
    await cli(['tasks', 'cancel', cancelled.id]);
    await eventually(() => (receiver.requests.length >= 3 ? true : undefined), 10_000, 'three deliveries');
    const bodies = Object.fromEntries(receiver.requests.map((r) => [JSON.parse(r.body).id, { ...r, json: JSON.parse(r.body) }]));
    // A standalone task has no agent: the service sends agent_id null.
    expect(bodies[done.id]?.json).toMatchObject({ id: done.id, status: 'completed', agent_id: null, result: expect.anything() });
    expect(bodies[failed.id]?.json).toMatchObject({ status: 'failed', result: null, error_message: expect.any(String) });
    expect(bodies[cancelled.id]?.json).toMatchObject({ status: 'cancelled', result: null, message: expect.any(String) });
    for (const request of receiver.requests) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/-AgentWebhook\/1\.0$/);
    }
    const record = JSON.parse((await cli(['tasks', 'get', done.id, '--json'])).stdout);
    expect(record).toMatchObject({ webhook_last_status_code: 200, webhook_last_error: null, webhook_last_called_at: expect.any(String) });
    await receiver.close();
    expect(receiver.requests).toHaveLength(3);
  });

  it('records a failing receiver and does not retry', async () => {
    const receiver = await stubServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('receiver broke');
    });
    const task = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'x', webhook: `${receiver.baseUrl}/hook` });
    const record = await eventually(async () => {
      const current = await apiRequest<{ webhook_last_status_code: number | null; webhook_last_error: string | null }>(emulator.baseUrl, 'GET', `/tasks/browser-use/${task.id}/`);
      return current.webhook_last_status_code ? current : undefined;
    });
    expect(record.webhook_last_status_code).toBe(500);
    expect(record.webhook_last_error).toBe('Received status 500: receiver broke');
    await receiver.close();
    expect(receiver.requests).toHaveLength(1);
  });

  it('answers the transport rules: 301 for a GET without slash, HTML 404, 405, malformed JSON, persistent agents served', async () => {
    const headers = { 'x-api-key': 'emulator-key' };
    const redirect = await fetch(`${emulator.baseUrl}/tasks/browser-use`, { headers, redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/v1/tasks/browser-use/');
    const html = await fetch(`${emulator.baseUrl}/tasks/browser-use/not-a-uuid/`, { headers });
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toContain('text/html');
    const method = await fetch(`${emulator.baseUrl}/ping/`, { method: 'DELETE', headers });
    expect(method.status).toBe(405);
    const broken = await fetch(`${emulator.baseUrl}/tasks/browser-use/`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{nope' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { detail: string }).detail).toMatch(/^JSON parse error - /);
    const missingKey = await fetch(`${emulator.baseUrl}/tasks/browser-use/`);
    expect(await missingKey.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect((await fetch(`${emulator.baseUrl}/agents/`, { headers })).status).toBe(200);
    // An unknown webhook is 404; each persistent agent has one whose id is its own (docs/emulator.md).
    const unknown = await fetch(`${emulator.baseUrl}/webhooks/inbound/agents/3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f/?t=s`, { method: 'POST', body: 'hello' });
    expect(unknown.status).toBe(404);
    const agent = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: 'inbound hook' });
    const inbound = await fetch(`${emulator.baseUrl}/webhooks/inbound/agents/${agent.id}/?t=s`, { method: 'POST', body: 'hello' });
    expect(inbound.status).toBe(202);
    expect(await inbound.json()).toMatchObject({ accepted: true, webhookId: agent.id });
  });

  it('accepts numeric strings for wait and refuses an object prompt', async () => {
    const sync = await apiRequest<{ status: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'x', wait: '5' });
    expect(sync.status).toBe('completed');
    const objectPrompt = await fetch(`${emulator.baseUrl}/tasks/browser-use/`, {
      method: 'POST',
      headers: { 'x-api-key': 'emulator-key', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: { a: 1 } }),
    });
    expect(objectPrompt.status).toBe(400);
    expect(await objectPrompt.json()).toEqual({ prompt: ['Not a valid string.'] });
  });
});
