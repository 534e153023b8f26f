// A newcomer's first hour, round 2 (issue 47): each item as that user meets it, in-process against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against } from '../helpers/cli.js';
import { closedServiceHost } from '../../src/contract/url.js';
import { ClosedServiceError, createClient } from '../../src/client/index.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 50 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const pausedAgent = async () => {
  const { id } = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: `paused-${Date.now()}-${Math.random()}`, charter: 'Watch prices.' });
  await apiRequest(emulator.baseUrl, 'POST', `/agents/${id}/deactivate/`);
  return id;
};

describe('persistent chat to a paused agent (item 4)', () => {
  it('scripted: the failed send ends the chat (exit 1) and names persistent activate', async () => {
    const id = await pausedAgent();
    const result = await cli(['persistent', 'chat', id, '--reply-timeout', '5'], { input: 'hi\nand again\n' });
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toContain('409');
    expect(result.stderr).toContain(`agentctl persistent activate ${id}`);
  });

  it('persistent message says the same', async () => {
    const id = await pausedAgent();
    const result = await cli(['persistent', 'message', id, 'hi', '--channel', 'web']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`hint: the agent is paused: \`agentctl persistent activate ${id}\``);
  });
});

// The hosted service closed on 2026-09-01: its hosts are told by name, before any lookup (these
// tests never resolve or contact them: the refusal comes before the request).
describe('a base URL on the closed hosted service', () => {
  it('closedServiceHost knows the hosts and their subdomains, nothing else', () => {
    for (const host of ['gobii.ai', 'GOBII.AI.', 'api.gobii.ai', 'getgobii.com', 'www.getgobii.com']) expect(closedServiceHost(host), host).toBeDefined();
    for (const host of ['notgobii.ai', 'gobii.ai.example.com', 'localhost', '127.0.0.1', 'gobii.app']) expect(closedServiceHost(host), host).toBeUndefined();
  });

  it('doctor says so plainly (exit 2), not a network error, and shows the self-hosted way', async () => {
    const result = await cli(['doctor', '--base-url', 'https://gobii.ai/api/v1']);
    expect(result.exitCode, result.stderr).toBe(2);
    const [first] = result.stderr.split('\n');
    expect(first).toContain('closed on 2026-09-01');
    expect(result.stderr).toContain('agentctl auth login --base-url http://localhost:8000/api/v1');
    expect(result.stdout + result.stderr).not.toMatch(/ENOTFOUND|EAI_AGAIN|unreachable|network/i);
  });

  it('auth login says so (exit 2) and stores nothing', async () => {
    const result = await cli(['auth', 'login', '--base-url', 'https://api.getgobii.com/api/v1'], { input: 'a-key' });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toContain('error: the base URL https://api.getgobii.com/api/v1 is on getgobii.com, whose hosted service closed on 2026-09-01');
    expect(result.stderr).toContain('hint: run gobii-platform yourself');
    expect((await cli(['auth', 'status'])).stdout).not.toContain('getgobii');
  });

  it('the library rejects with ClosedServiceError, before any request', async () => {
    const client = createClient({ baseUrl: 'https://gobii.ai/api/v1', apiKey: 'k' });
    await expect(client.tasks.get('3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f')).rejects.toThrow(ClosedServiceError);
    await expect(client.tasks.get('3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f')).rejects.toThrow(/gobii\.ai, whose hosted service closed on 2026-09-01/);
  });
});
