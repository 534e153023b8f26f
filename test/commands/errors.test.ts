import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { agentctl, against } from '../helpers/cli.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';
import { FakeClock } from '../helpers/fake-clock.js';

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
    // Nothing listens on this machine's port: no retry would change that, so it fails at once (no backoff).
    const clock = new FakeClock();
    const result = await agentctl(['agents', 'list'], { env: { AGENTCTL_BASE_URL: `http://127.0.0.1:${port}/api/v1`, AGENTCTL_API_KEY: 'k' }, clock });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr).not.toContain('attempts');
    expect(clock.sleeps).toEqual([]);
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
    const result = await against(stub.baseUrl)(['tasks', 'list', '--json'], { clock: new FakeClock() });
    await stub.close();
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('502 Bad Gateway (non-JSON response)');
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(stub.requests.length).toBe(5);
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

  it('reports a response of the wrong shape instead of crashing, saying what was expected', async () => {
    const stub = await stubServer((req, res) =>
      sendJson(res, 200, req.url.startsWith('/api/v1/agents/') ? { count: 1, results: 'nope' } : { id: 'x', status: 'weird' }),
    );
    const list = await against(stub.baseUrl)(['agents', 'list']);
    const task = await against(stub.baseUrl)(['tasks', 'get', '3fa85f64-5717-4562-b3fc-2c963f66afa6']);
    await stub.close();
    expect(list.exitCode).toBe(1);
    expect(list.stderr).toContain('unexpected response from GET /api/v1/agents/browser-use/: results: Invalid input: expected array, received string');
    expect(task.exitCode).toBe(1);
    expect(task.stderr).toContain('status: Invalid option: expected one of "pending"|"in_progress"|"completed"|"failed"|"cancelled"');
  });

  it('api with --json or --jq refuses a success body that is not JSON (a login page, a cut-off answer): exit 1, stdout empty', async () => {
    const stub = await stubServer((req, res) => {
      if (req.url.startsWith('/api/v1/cut/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": ');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login portal</html>');
    });
    const cli = against(stub.baseUrl);
    const json = await cli(['api', 'GET', '/tasks/browser-use/', '--json']);
    const jq = await cli(['api', 'GET', '/tasks/browser-use/', '--jq', '.count']);
    const cut = await cli(['api', 'GET', '/cut/', '--json']);
    const plain = await cli(['api', 'GET', '/tasks/browser-use/']);
    await stub.close();
    for (const result of [json, jq, cut]) {
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('with a body that is not JSON');
    }
    expect(json.stderr).toContain('(text/html)');
    // Without --json the body is what was asked for: printed as it came.
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toBe('<html>login portal</html>\n');
  });

  it('404 with an HTML body for an unknown route is exit 4', async () => {
    const result = await against(emulator.baseUrl)(['api', 'GET', '/no/such/route/']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('404');
  });

  it('renders each 400 body shape as readable lines (field: message), exit 1', async () => {
    const bodies = [
      { prompt: ['Not a valid string.'], non_field_errors: ['Either a prompt or an agent is needed.'] },
      ['Task cannot be updated once it has started.'],
      { detail: 'JSON parse error - Expecting value: line 1 column 1 (char 0)' },
    ];
    const stub = await stubServer((_req, res, index) => sendJson(res, 400, bodies[index]));
    const cli = against(stub.baseUrl);
    const fields = await cli(['tasks', 'create', 'x', '--json']);
    const bare = await cli(['tasks', 'create', 'x']);
    const detail = await cli(['tasks', 'create', 'x']);
    await stub.close();
    for (const result of [fields, bare, detail]) {
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
    }
    for (const result of [bare, detail]) expect(result.stderr).not.toContain('{');
    // Under --json the same lines arrive as one JSON error object.
    expect(JSON.parse(fields.stderr).error.message).toBe('the service answered 400 (invalid request):\n  prompt: Not a valid string.\n  Either a prompt or an agent is needed.');
    expect(bare.stderr).toContain('error: the service answered 400 (invalid request): Task cannot be updated once it has started.\n');
    expect(detail.stderr).toContain('error: the service answered 400 (invalid request): JSON parse error - Expecting value');
  });

  it('a 403 that is not about the key is "forbidden" (exit 1), not an auth failure', async () => {
    const stub = await stubServer((_req, res) => sendJson(res, 403, { detail: 'You do not have permission to perform this action.' }));
    const result = await against(stub.baseUrl)(['agents', 'list']);
    await stub.close();
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('error: the service answered 403 (forbidden): You do not have permission to perform this action.');
    expect(result.stderr).not.toContain('auth login');
  });

  it('renders 404 and 409 bodies from the emulator', async () => {
    const cli = against(emulator.baseUrl);
    const missing = await cli(['tasks', 'get', '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: no task 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f \(the service answered 404\)$/m);
    const task = JSON.parse((await cli(['tasks', 'create', '[fail] quickly', '--wait', '5', '--json'])).stdout);
    const conflict = await cli(['tasks', 'cancel', task.id]);
    expect(conflict.exitCode).toBe(1);
    expect(conflict.stderr).toContain('error: the service answered 409 (conflict): Task is already failed and cannot be cancelled.');
  });

  it('with --json, stdout stays empty on every kind of error (the error goes to stderr)', async () => {
    const cli = against(emulator.baseUrl);
    const cases = [
      await cli(['tasks', 'create', 'x', '--wait', '9999', '--json']), // 2: usage
      await against(emulator.baseUrl, 'wrong-key')(['tasks', 'list', '--json']), // 3: auth
      await cli(['tasks', 'get', '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', '--jsonl']), // 4: not found
      await cli(['tasks', 'create', '[no-credits] x', '--json']), // 1: service error
    ];
    expect(cases.map((result) => result.exitCode)).toEqual([2, 3, 4, 1]);
    for (const result of cases) {
      expect(result.stdout).toBe('');
      expect(JSON.parse(result.stderr).error).toMatchObject({ exit: result.exitCode, message: expect.any(String) });
    }
  });

  it('never shows the API key or secret values, even when a failing service echoes the request and --verbose traces it', async () => {
    const stub = await stubServer((req, res) => sendJson(res, 400, { detail: `cannot use ${req.body} with key ${String(req.headers['x-api-key'])}` }));
    const key = 'sk-live-9f8e7d6c5b4a';
    const result = await agentctl(
      ['tasks', 'create', 'Log in', '--verbose', '--json', '--api-key', key, '--base-url', stub.baseUrl,
        '--secret', 'https://shop.example', 'PASSWORD=correct-horse-battery', '--secret-env', 'https://bank.example', 'PIN=BANK_PIN'],
      { env: { BANK_PIN: '424242-pin' } },
    );
    await stub.close();
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(stub.requests[0]?.body ?? '{}').secrets).toEqual({
      'https://shop.example': { PASSWORD: 'correct-horse-battery' },
      'https://bank.example': { PIN: '424242-pin' },
    });
    expect(result.stderr).toContain('> x-api-key: ***');
    expect(result.stderr).toContain('cannot use');
    for (const secret of [key, 'correct-horse-battery', '424242-pin']) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
  });

  it('usage errors exit 2: unknown command, unknown flag, missing argument', async () => {
    expect((await agentctl(['frobnicate'])).exitCode).toBe(2);
    expect((await agentctl(['tasks', 'list', '--frob'])).exitCode).toBe(2);
    expect((await agentctl(['tasks', 'get'])).exitCode).toBe(2);
    expect((await agentctl(['tasks', 'list', '--json', '--jsonl'])).exitCode).toBe(2);
  });
});

const MISSING = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
let cli: ReturnType<typeof against>;
/** The emulator's address as a user might type it: without /api/v1. */
let bare: string;
beforeAll(() => {
  cli = against(emulator.baseUrl);
  bare = emulator.baseUrl.replace(/\/api\/v1$/, '');
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

describe('a base URL without /api/v1', () => {
  it('every command hints the URL the user gave with /api/v1 appended, not the default port', async () => {
    const result = await cli(['tasks', 'list'], { env: { AGENTCTL_BASE_URL: `${bare}/` } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`hint: the base URL ${bare} lacks /api/v1: use --base-url ${bare}/api/v1`);
    expect(result.stderr).not.toContain('8787');
  });
});
