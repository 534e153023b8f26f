// A newcomer's first hour, round 2 (issue 47): each item as that user meets it, in-process against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against, tempDir } from '../helpers/cli.js';
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
    // The service's MCP send refuses a paused agent with its agent_inactive payload (REST: 409).
    expect(result.stderr).toContain('paused');
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
    // Before the key is asked for: a key typed for a closed host would be typed for nothing.
    const asked = await cli(['auth', 'login', '--base-url', 'https://gobii.ai/api/v1'], { terminal: { stdinIsTTY: true, stderrIsTTY: true } });
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).not.toContain('API key:');
    expect(asked.stderr).toContain('closed on 2026-09-01');
  });

  it('the library rejects with ClosedServiceError, before any request', async () => {
    const client = createClient({ baseUrl: 'https://gobii.ai/api/v1', apiKey: 'k' });
    await expect(client.tasks.get('3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f')).rejects.toThrow(ClosedServiceError);
    await expect(client.tasks.get('3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f')).rejects.toThrow(/gobii\.ai, whose hosted service closed on 2026-09-01/);
  });
});

describe("gh's habits get a pointer (item 10)", () => {
  it('--limit and -L point to --page-size and --all', async () => {
    for (const flag of ['--limit', '-L']) {
      const result = await cli(['tasks', 'list', flag, '5']);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`error: unknown option '${flag}'`);
      expect(result.stderr).toContain(`hint: gh's ${flag} is not an option here: --page-size N reads one page of N items`);
      expect(result.stderr).toContain('--all every page');
    }
  });

  it('-q with a filter says -q is --quiet and gh\'s -q is --jq', async () => {
    const result = await cli(['tasks', 'list', '-q', '.[].id']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("hint: -q is --quiet here; gh's -q is --jq: --jq '.[].id'");
  });

  it('tasks del suggests delete, not help', async () => {
    const result = await cli(['tasks', 'del', '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('(Did you mean delete?)');
    expect(result.stderr).not.toContain('Did you mean help');
  });

  it('auth token prints the key in use, alone, on stdout (and only there)', async () => {
    const result = await cli(['auth', 'token']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'emulator-key\n', stderr: '' });
    const none = await cli(['auth', 'token'], { env: { AGENTCTL_API_KEY: undefined } });
    expect(none.exitCode).toBe(3);
    expect(none.stdout).toBe('');
  });
});

describe('round-2 rough edges (item 11)', () => {
  it('tasks create --follow --json: stderr holds only the JSON error, stdout the task', async () => {
    const result = await cli(['tasks', 'create', 'Book it [fail]', '--follow', '--json']);
    expect(result.exitCode).toBe(5);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ error: { code: 'task_failed', exit: 5 } });
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'failed' });
  });

  it('config set output table is stored, and lists are then tables even when piped', async () => {
    const home = tempDir('agentctl-config-');
    const set = await cli(['config', 'set', 'output', 'table'], { configHome: home });
    expect(set.exitCode, set.stderr).toBe(0);
    await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'listed' });
    const listed = await cli(['tasks', 'list'], { configHome: home });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS/i);
    expect(listed.stdout).not.toContain('\t');
    // A machine format still wins.
    expect(JSON.parse((await cli(['tasks', 'list', '--json'], { configHome: home })).stdout)).toBeInstanceOf(Array);
  });

  it('completion --help names PowerShell too', async () => {
    const result = await cli(['completion', '--help']);
    expect(result.stdout.replace(/\s+/g, ' ')).toMatch(/\(bash, zsh, fish or powershell\)/);
  });
});
