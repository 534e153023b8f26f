// Issue 48, round 2 (smaller items): a base URL that would send the API key in clear text, ids a
// batch's creates are answered with that differ only in case, and a batch line whose text holds a
// lone surrogate. Each attack is a stub service in this process, a base URL or a batch file; each
// checks what a user would notice: the exit code, what stderr and stdout say, what was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearTextHost } from '../../src/contract/url.js';
import { against, agentctl, tempDir } from '../helpers/cli.js';
import { creatingStub, inputFile, TASK_ID } from '../helpers/batch-stub.js';
import { jsonLines } from '../helpers/json-lines.js';
import { networkAddress, sendJson, stubServer } from '../helpers/stub-server.js';

describe('run-batch: a lone surrogate in a line', () => {
  it.each([
    ['prompt', '{"prompt": "Book a table \\ud800 for two"}'],
    ['output_schema', '{"prompt": "p", "output_schema": {"type": "object", "properties": {"na\\udc00me": {"type": "string"}}}}'],
    ['secrets', '{"prompt": "p", "secrets": {"https://shop.example": {"PASSWORD": "hunter2\\ud83d"}}}'],
    ['key', '{"prompt": "p", "key": "k\\ud800"}'],
  ])('in %s is refused before any request, naming the line and the field', async (field, line) => {
    const stub = await creatingStub(() => TASK_ID);
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['{"prompt": "fine"}', line])]);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`line 2: "${field}" holds a lone surrogate \\(U\\+D[0-9A-F]{3}\\)`));
      expect(result.stderr).toContain('nothing was sent');
      expect(result.stderr).not.toContain('hunter2');
      expect(stub.requests).toHaveLength(0);
    } finally {
      await stub.close();
    }
  });

  it('a pair of escapes (one character) passes', async () => {
    const stub = await creatingStub(() => TASK_ID);
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['{"prompt": "Book a table \\ud83d\\ude00"}'])]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(stub.requests[0]?.body ?? '{}')).toMatchObject({ prompt: 'Book a table 😀' });
    } finally {
      await stub.close();
    }
  });
});

describe('run-batch: ids that differ only in case', () => {
  it('are one id: the second line is unknown, naming the first, and the task is followed once', async () => {
    const stub = await creatingStub((n) => (n === 1 ? TASK_ID.toUpperCase() : TASK_ID));
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['one', 'two']), '--follow', '--concurrency', '1', '--interval', '0.05']);
      expect(result.exitCode, result.stderr).toBe(1);
      const lines = jsonLines(result.stdout).sort((a, b) => Number(a.line) - Number(b.line));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ line: 1, status: 'completed' });
      expect(lines[1]).toMatchObject({ line: 2, id: TASK_ID, status: 'unknown' });
      expect(String(lines[1]?.error)).toContain(`which it gave line 1 too (as ${TASK_ID.toUpperCase()})`);
      expect(result.stderr).toMatch(/line 2: unknown: .*which it gave line 1 too/);
      // Polled for one line only.
      const polled = new Set(stub.requests.filter((request) => request.url.includes('/result/')).map((request) => request.url.toLowerCase()));
      expect(polled.size).toBe(1);
    } finally {
      await stub.close();
    }
  });
});

// A stub on this machine's network address stands for another machine, and shows whether anything
// was sent. A machine with no network (loopback only) skips the tests that need one.
describe.skipIf(networkAddress === undefined)('a plain http:// base URL to another machine', () => {
  const KEY = 'clear-text-key-0123';
  let stub: Awaited<ReturnType<typeof stubServer>>;
  let remote: string;
  beforeAll(async () => {
    stub = await stubServer((request, response) => {
      if (request.url.startsWith('/api/v1/ping/')) return sendJson(response, 200, { user: 'me@example.com' });
      sendJson(response, 200, { count: 0, next: null, previous: null, results: [] });
    }, networkAddress);
    remote = stub.baseUrl;
  });
  afterAll(() => stub.close());
  const sent = () => stub.requests.splice(0).length;

  it('is refused before any request: exit 2, naming the host and how to allow it, never the key', async () => {
    const result = await against(remote, KEY)(['tasks', 'list']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`refusing to send the API key in clear text to ${new URL(remote).host}`);
    expect(result.stderr).toMatch(/hint: .*--insecure-http.*AGENTCTL_INSECURE_HTTP=1.*config set insecure-http true/);
    expect(result.stderr + result.stdout).not.toContain(KEY);
    expect(sent()).toBe(0);
  });

  it('is sent when asked: --insecure-http, AGENTCTL_INSECURE_HTTP=1, or the profile\'s insecure-http', async () => {
    expect((await against(remote, KEY)(['tasks', 'list', '--insecure-http'])).exitCode).toBe(0);
    expect((await against(remote, KEY)(['tasks', 'list'], { env: { AGENTCTL_INSECURE_HTTP: '1' } })).exitCode).toBe(0);
    const home = tempDir();
    const stored = await agentctl(['config', 'set', 'base-url', remote], { configHome: home });
    expect(stored.stderr).toContain('would take the key in clear text: commands refuse it unless --insecure-http');
    expect((await agentctl(['config', 'set', 'insecure-http', 'maybe'], { configHome: home })).exitCode).toBe(2);
    expect((await agentctl(['config', 'set', 'insecure-http', 'true'], { configHome: home })).exitCode).toBe(0);
    expect((await against(remote, KEY)(['tasks', 'list'], { configHome: home })).exitCode).toBe(0);
    expect(stub.requests.map((request) => request.headers['x-api-key'])).toEqual([KEY, KEY, KEY]);
    sent();
  });

  it('auth login refuses it before asking for the key; doctor and mcp say so and send nothing', async () => {
    const home = tempDir();
    const login = await agentctl(['auth', 'login', '--base-url', remote], { configHome: home, input: KEY });
    expect(login.exitCode, login.stderr).toBe(2);
    expect(login.stderr).toContain('--insecure-http');
    expect((await agentctl(['config', 'list', '--json'], { configHome: home })).stdout).not.toContain('api-key');
    const doctor = await against(remote, KEY)(['doctor', '--json']);
    expect(doctor.exitCode).toBe(2);
    expect(JSON.parse(doctor.stdout).problems[0]).toMatch(/^base_url: refusing to send the API key in clear text to .*--insecure-http/);
    const mcp = await against(remote, KEY)(['mcp'], { input: '' });
    expect(mcp.exitCode).toBe(2);
    expect(mcp.stderr).toContain('refusing to send the API key in clear text');
    expect(sent()).toBe(0);
  });

  it('auth login with --insecure-http says the next commands need it too', async () => {
    const home = tempDir();
    const login = await agentctl(['auth', 'login', '--base-url', remote, '--insecure-http'], { configHome: home, input: KEY });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toContain('the next commands need --insecure-http too, or `agentctl config set insecure-http true`');
    sent();
  });
});

describe('which hosts are this machine', () => {
  it('loopback, the unspecified addresses (emulator --host 0.0.0.0) and https need no permission; any other http:// host does', () => {
    for (const url of ['http://localhost:8000/api/v1', 'http://127.0.0.1:8787/api/v1', 'http://127.4.5.6/api/v1', 'http://[::1]:8000/api/v1', 'http://0.0.0.0:8787/api/v1', 'http://[::]:8787/api/v1', 'http://[::ffff:127.0.0.1]/', 'https://service.example/api/v1']) {
      expect(clearTextHost(new URL(url)), url).toBeUndefined();
    }
    for (const url of ['http://service.example/api/v1', 'http://10.0.0.7:8000/api/v1', 'http://localhost.evil.example/', 'http://[::2]/', 'http://[::ffff:10.0.0.1]/']) {
      expect(clearTextHost(new URL(url)), url).toBe(new URL(url).host);
    }
  });
});
