// What a new user and a script expect (issue 15), run in-process against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { agentctl, against } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const MISSING = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 60_000 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const createTask = (prompt: string) => apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt });

describe('help [command...]', () => {
  it('answers at every level, like --help', async () => {
    for (const path of [[], ['tasks'], ['tasks', 'create'], ['config', 'set']]) {
      const viaHelp = await agentctl(['help', ...path]);
      const viaFlag = await agentctl([...path, '--help']);
      expect(viaHelp.exitCode, viaHelp.stderr).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
  });

  it('names the commands there are for an unknown one (exit 2)', async () => {
    const result = await agentctl(['help', 'tasks', 'bogus']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('unknown command "tasks bogus"');
    expect(result.stderr).toContain('create');
  });
});

describe('usage errors', () => {
  it('help before a verb is the noun\'s help, with every verb (a run defines only the verb it names)', async () => {
    const all = await agentctl(['tasks', '--help']);
    for (const argv of [['tasks', '--help', 'list'], ['tasks', '-h', 'get']]) {
      const result = await agentctl(argv);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(all.stdout);
    }
    expect(all.stdout).toContain('cancel');
  });

  it('a mistyped verb is told the verb it resembles (a run defines only the verb it names)', async () => {
    const result = await agentctl(['tasks', 'lst']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command 'lst'");
    expect(result.stderr).toContain('Did you mean list?');
  });

  it('a missing argument prints the usage line and the help command', async () => {
    const result = await agentctl(['tasks', 'get']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("missing required argument 'id'");
    expect(result.stderr).toMatch(/usage: agentctl tasks get \[options\] <id>/);
    expect(result.stderr).toContain('agentctl help tasks get');
  });
});

describe('errors under --json', () => {
  it('are one JSON object on stderr with code, exit, message and hint', async () => {
    const result = await cli(['tasks', 'get', MISSING, '--json']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr);
    expect(error).toMatchObject({ code: 'not_found', exit: 4 });
    expect(error.message).toContain(MISSING);
    const usage = await agentctl(['tasks', 'get', '--json']);
    expect(JSON.parse(usage.stderr).error).toMatchObject({ code: 'usage', exit: 2 });
  });
});

describe('not found', () => {
  it('names the thing and its id', async () => {
    const result = await cli(['tasks', 'get', MISSING]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`no task ${MISSING}`);
    const agent = await cli(['persistent', 'get', MISSING]);
    expect(agent.stderr).toContain(`no persistent agent ${MISSING}`);
  });

  it('a non-JSON 404 says the base URL probably lacks /api/v1 (exit 2)', async () => {
    const result = await cli(['tasks', 'list'], { env: { AGENTCTL_BASE_URL: emulator.baseUrl.replace(/\/api\/v1$/, '') } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('lacks /api/v1');
  });
});

describe('the missing-key hint', () => {
  it('names the emulator key when the base URL is on this machine', async () => {
    const result = await agentctl(['tasks', 'list'], { env: { AGENTCTL_BASE_URL: emulator.baseUrl } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('AGENTCTL_API_KEY=emulator-key');
    const remote = await agentctl(['tasks', 'list'], { env: { AGENTCTL_BASE_URL: 'https://service.example/api/v1' } });
    expect(remote.stderr).not.toContain('emulator-key');
  });
});

describe('--fields', () => {
  it('an unknown field is a usage error listing the fields there are', async () => {
    await createTask('fields');
    for (const format of [[], ['--json'], ['--all', '--json'], ['--all', '--jsonl']]) {
      const result = await cli(['tasks', 'list', '--fields', 'id,bogus', ...format]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('bogus');
      expect(result.stderr).toMatch(/status/);
      // Nothing on stdout, not even the opening of a JSON array.
      expect(result.stdout, format.join(' ')).toBe('');
    }
  });
});

describe('--jq', () => {
  it('filters the JSON output with a jq expression', async () => {
    const { id } = await createTask('jq');
    const result = await cli(['tasks', 'get', id, '--jq', '.prompt']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'jq\n' });
    const list = await cli(['tasks', 'list', '--jq', '.[0] | .id']);
    expect(list.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const lines = await cli(['tasks', 'list', '--jsonl', '--jq', '.status']);
    expect(lines.stdout.trim().split('\n').every((line) => line === 'pending' || line === 'in_progress')).toBe(true);
  });

  it('prints before a failing exit code, and a runtime error exits 2', async () => {
    const { id } = await createTask('jq cancelled');
    await apiRequest(emulator.baseUrl, 'POST', `/tasks/browser-use/${id}/cancel/`);
    const result = await cli(['tasks', 'result', id, '--jq', '.status']);
    expect(result).toMatchObject({ exitCode: 6, stdout: 'cancelled\n' });
    const failing = await cli(['tasks', 'get', id, '--jq', '.status | error("boom")']);
    expect(failing.exitCode).toBe(2);
    expect(failing.stderr).toContain('boom');
  });

  it('refuses an expression that does not compile before any request (exit 2)', async () => {
    const result = await agentctl(['tasks', 'list', '--jq', '.[', '--base-url', 'http://127.0.0.1:9/api/v1', '--api-key', 'k123']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--jq.*syntax error/);
  });
});

describe('text from the service', () => {
  it('is shown with control characters escaped on a terminal, exact in JSON', async () => {
    const prompt = 'title\u001b]0;pwned\u0007 clear\u001b[2J';
    const { id } = await createTask(prompt);
    const view = await cli(['tasks', 'get', id], { terminal: { stdoutIsTTY: true, stderrIsTTY: true, columns: 120 } });
    expect(view.stdout).not.toContain('\u001b]');
    expect(view.stdout).not.toContain('\u0007');
    expect(view.stdout).toContain('\\x1b]0;pwned\\x07');
    const json = await cli(['tasks', 'get', id, '--json']);
    expect(JSON.parse(json.stdout).prompt).toBe(prompt);
  });

  it('is escaped in --verbose traces too (a raw C1 CSI in a response body)', async () => {
    const { id } = await createTask('c1 \u009b2J here');
    const traced = await cli(['tasks', 'get', id, '--json', '--verbose']);
    expect(traced.stderr).toContain('c1 \\x9b2J here');
    expect(traced.stderr).not.toContain('\u009b');
    expect(JSON.parse(traced.stdout).prompt).toBe('c1 \u009b2J here');
  });
});

describe('tasks list --status (filtered by agentctl)', () => {
  it('reads on past a page without matches, and says there is more on stderr when piped', async () => {
    const early = await createTask('cancelled early');
    await apiRequest(emulator.baseUrl, 'POST', `/tasks/browser-use/${early.id}/cancel/`);
    for (let i = 0; i < 12; i++) await createTask(`filler ${i}`);
    const result = await cli(['tasks', 'list', '--status', 'cancelled', '--page-size', '5', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).map((task: { id: string }) => task.id)).toContain(early.id);

    const piped = await cli(['tasks', 'list', '--page-size', '2', '--json']);
    expect(JSON.parse(piped.stdout)).toHaveLength(2);
    expect(piped.stderr).toMatch(/More: --page 2, or --all/);
    const quiet = await cli(['tasks', 'list', '--page-size', '2', '--json', '-q']);
    expect(quiet.stderr).toBe('');
  });
});

describe('tasks result', () => {
  it('exits 9 while the task has not finished, 6 when cancelled, 5 when failed', async () => {
    const running = await createTask('still running');
    const pending = await cli(['tasks', 'result', running.id]);
    expect(pending.exitCode).toBe(9);
    expect(pending.stderr).toContain(`agentctl tasks wait ${running.id}`);
    await apiRequest(emulator.baseUrl, 'POST', `/tasks/browser-use/${running.id}/cancel/`);
    expect((await cli(['tasks', 'result', running.id])).exitCode).toBe(6);

    const fast = await startEmulator({ port: 0, taskDurationMs: 10 });
    try {
      const failing = await apiRequest<{ id: string }>(fast.baseUrl, 'POST', '/tasks/browser-use/', { prompt: '[fail] this one' });
      const wait = await against(fast.baseUrl)(['tasks', 'wait', failing.id, '--interval', '0.05']);
      expect(wait.exitCode).toBe(5);
      expect((await against(fast.baseUrl)(['tasks', 'result', failing.id])).exitCode).toBe(5);
    } finally {
      await fast.close();
    }
  });
});

describe('tasks cancel', () => {
  it('on a task already cancelled says so and exits 0', async () => {
    const { id } = await createTask('cancel twice');
    expect((await cli(['tasks', 'cancel', id])).exitCode).toBe(0);
    const again = await cli(['tasks', 'cancel', id], { terminal: { stdoutIsTTY: true, stderrIsTTY: true, columns: 100 } });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('already cancelled');
  });
});

describe('prompt files', () => {
  it('refuses invalid UTF-8, NUL bytes and oversized prompts before any request (exit 2)', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/cli.js');
    const dir = tempDir();
    const offline = (args: string[], input?: string) => agentctl([...args, '--base-url', 'http://127.0.0.1:9/api/v1', '--api-key', 'k123'], { input });
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(join(dir, 'nul.txt'), Buffer.from('abc\u0000def'));
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(2 * 1024 * 1024));
    const latin1 = await offline(['tasks', 'create', '--prompt-file', join(dir, 'latin1.txt')]);
    expect(latin1.exitCode).toBe(2);
    expect(latin1.stderr).toContain('not valid UTF-8');
    const nul = await offline(['tasks', 'create', '--prompt-file', join(dir, 'nul.txt')]);
    expect(nul.exitCode).toBe(2);
    expect(nul.stderr).toContain('NUL byte');
    const big = await offline(['tasks', 'create', '--prompt-file', join(dir, 'big.txt')]);
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toContain('the limit is 1 MiB');
    const stdin = await offline(['tasks', 'create', '-'], 'x'.repeat(2 * 1024 * 1024));
    expect(stdin.exitCode).toBe(2);
  });
});

describe('doctor', () => {
  it('reports base URL, key source (never the key), reachability, emulator, config and clock skew', async () => {
    const result = await cli(['doctor', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      base_url: emulator.baseUrl,
      base_url_source: 'env',
      api_key_source: 'env',
      service: 'emulator',
      ping: { ok: true },
      config: { exists: false },
    });
    expect(report.ping.latency_ms).toBeGreaterThanOrEqual(0);
    expect(Math.abs(report.clock_skew_seconds)).toBeLessThanOrEqual(2);
    expect(report.config.path).toMatch(/agentctl\/config\.json$/);
    const human = await cli(['doctor']);
    expect(human.stdout + human.stderr).not.toContain('emulator-key');
    expect(human.stdout).toContain('agentctl emulator');
  });

  it('exits with the failure\'s code when the service cannot be reached', async () => {
    const result = await agentctl(['doctor', '--base-url', 'http://127.0.0.1:9/api/v1', '--api-key', 'k123', '--timeout', '2']);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toMatch(/reachable\s+no/);
  });
});

describe('local servers that cannot start', () => {
  it('emulator and webhook-listen on a port in use exit 2 with what to change, no stack trace', async () => {
    // The in-process emulator of this file holds a port already.
    const port = new URL(emulator.baseUrl).port;
    for (const args of [['emulator', '--port', port], ['webhook-listen', '--port', port]]) {
      const result = await agentctl(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(result.stderr).toContain('pick another --port');
      expect(result.stderr).not.toContain('this is a bug');
    }
  });

  it('emulator --api-key "" is refused before it listens', async () => {
    const result = await agentctl(['emulator', '--port', '0', '--api-key', '']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('the API key from --api-key is empty');
    expect(result.stdout).toBe('');
  });
});
