import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against, tempDir } from '../helpers/cli.js';

// `agentctl conformance` against the emulator (it must score 100% and leave nothing behind), and
// against a proxy in front of it that alters answers in known ways: the report must name exactly
// those differences.

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
/** Told of each request the emulator answered: `POST /api/v1/... -> 201`. */
let onRequest: (line: string) => void = () => undefined;

beforeAll(async () => {
  // Tasks that outlast the run, as on a deployment whose browser takes its time: a cancel meets a running task.
  emulator = await startEmulator({ port: 0, taskDurationMs: 10 * 60 * 1000, log: (line) => onRequest(line) });
  cli = against(emulator.baseUrl);
  // A record the user had before: the read-only schedule preview reads it and changes nothing.
  await apiRequest(emulator.baseUrl, 'POST', '/agents/', { name: 'the user’s own agent', charter: 'kept' });
});
afterAll(() => emulator.close());

interface Report {
  service_version: string | null;
  score: { passed: number; total: number; percent: number };
  interrupted: boolean;
  operations: Array<{ name: string; outcome: string; differences: Array<{ rule: string; path: string; known?: string; ignored?: true }> }>;
  leftovers: { found: number; removed: number };
  cleanup: { removed: number; failed: string[] };
  cap: { limit: number; used: number } | null;
}

/** Everything with a conformance marker still on the emulator: tasks (by prompt), agents (by name). */
async function marked(): Promise<string[]> {
  const list = async (path: string) => (await apiRequest<{ results: Array<Record<string, unknown>> }>(emulator.baseUrl, 'GET', `${path}?page_size=100`)).results;
  const has = (text: unknown) => typeof text === 'string' && text.includes('agentctl-conformance-');
  const tasks = (await list('/tasks/browser-use/')).filter((task) => has(task.prompt)).map((task) => `task ${String(task.id)}`);
  const agents = [...(await list('/agents/')), ...(await list('/agents/browser-use/'))].filter((agent) => has(agent.name)).map((agent) => String(agent.name));
  return [...tasks, ...agents];
}

describe('conformance against the emulator', () => {
  it('scores 100% read-only, and changes nothing', async () => {
    const before = emulator.requests.length;
    const result = await cli(['conformance', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.score.percent).toBe(100);
    expect(report.service_version).toMatch(/^gobii \d+\.\d+/); // what the remote MCP endpoint's initialize names
    expect(report.operations.find((operation) => operation.name === 'persistent.schedule-preview')?.outcome).toBe('pass');
    expect(report.operations.every((operation) => operation.differences.length === 0)).toBe(true);
    const writes = emulator.requests.slice(before).filter((request) => request.method !== 'GET' && request.status < 300 && !request.path.includes('/schedule/preview/') && request.path !== '/mcp/');
    expect(writes).toEqual([]);
  });

  it('scores 100% with --allow-writes, prints the cap first, and leaves nothing behind', async () => {
    const result = await cli(['conformance', '--allow-writes', '--yes']);
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^--allow-writes: 5 creates at most \(1 browser-use agent, 1 persistent agent, 3 tasks\)/);
    expect(result.stdout).toContain('Score: ');
    expect(result.stdout).toContain('(100%); 0 differences from the emulator.');
    expect(result.stdout).toMatch(/^pass +100% +tasks\.cancel /m);
    expect(await marked()).toEqual([]);
  });

  it('refuses --allow-writes without --yes off a terminal, before any request', async () => {
    const before = emulator.requests.length;
    const result = await cli(['conformance', '--allow-writes']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^--allow-writes: 5 creates at most/);
    expect(result.stderr).toContain('refusing without --yes');
    expect(emulator.requests.length).toBe(before);
  });

  it('asks at a terminal; a no creates nothing', async () => {
    const before = emulator.requests.length;
    const result = await cli(['conformance', '--allow-writes'], { input: 'n\n', terminal: { stdinIsTTY: true, stderrIsTTY: true } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('[y/N]');
    expect(result.stderr).toContain('Cancelled: nothing was created.');
    expect(emulator.requests.length).toBe(before);
  });

  it('on Ctrl-C midway, cleans up what it made, says so and exits 130; the next run finds nothing left', async () => {
    const stop = new AbortController();
    // Ctrl-C as soon as the first task below the agent exists.
    onRequest = (line) => {
      if (/^POST \/api\/v1\/agents\/browser-use\/[0-9a-f-]{36}\/tasks\/ -> 201/.test(line)) stop.abort();
    };
    try {
      const result = await cli(['conformance', '--allow-writes', '--yes', '--json'], { signal: stop.signal });
      expect(result.exitCode, result.stderr).toBe(130);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.interrupted).toBe(true);
      expect(report.cleanup.removed).toBeGreaterThanOrEqual(1); // the agent at least (its tasks go with it)
      expect(report.cleanup.failed).toEqual([]);
    } finally {
      onRequest = () => undefined;
    }
    expect(await marked()).toEqual([]);
    const next = JSON.parse((await cli(['conformance', '--json'])).stdout) as Report;
    expect(next.leftovers.found).toBe(0);
  });

  it('--record writes a cassette of the deployment\'s exchanges only, its cleanup included', async () => {
    const cassette = join(tempDir(), 'conformance.jsonl');
    const result = await cli(['conformance', '--allow-writes', '--yes', '--record', cassette]);
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = readFileSync(cassette, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { base: string; method: string; path: string; status: number });
    expect(new Set(lines.map((line) => line.base))).toEqual(new Set([emulator.baseUrl]));
    expect(lines.filter((line) => line.method === 'POST' && line.path === '/agents/browser-use/' && line.status === 201)).toHaveLength(1);
    expect(lines.filter((line) => line.method === 'DELETE')).toHaveLength(5);
  });

  it('finds what a killed run left by the marker: reports it read-only, removes it with --allow-writes', async () => {
    const marker = 'agentctl-conformance-0badc0de';
    await apiRequest(emulator.baseUrl, 'POST', '/agents/browser-use/', { name: `${marker}-legacy` });
    await apiRequest(emulator.baseUrl, 'POST', '/agents/', { name: `${marker}-persistent`, charter: 'left behind' });
    await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: `${marker}: left behind` });
    const seen = await cli(['conformance']);
    expect(seen.stdout).toContain('3 records an earlier run left (marked agentctl-conformance-*); --allow-writes removes them.');
    expect(await marked()).toHaveLength(4); // nothing removed (the persistent agent's browser-use agent is listed too)
    const removed = await cli(['conformance', '--allow-writes', '--yes', '--json']);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect((JSON.parse(removed.stdout) as Report).leftovers).toMatchObject({ found: 3, removed: 3 });
    expect(await marked()).toEqual([]);
  });
});

type Alter = (method: string, route: string, status: number, text: string) => { status: number; text: string };

const UUID = '[0-9a-f-]{36}';

/** The four known alterations of the test below; every other answer as the emulator gave it. */
const fourAlterations: Alter = (method, route, status, text) => {
  const json = () => JSON.parse(text) as Record<string, unknown>;
  if (method === 'GET' && status === 200 && new RegExp(`^/api/v1/agents/${UUID}/$`).test(route)) {
    const { short_description: moved, ...rest } = json();
    return { status, text: JSON.stringify({ ...rest, summary: moved }) };
  }
  if (method === 'POST' && status === 404 && new RegExp(`^/api/v1/tasks/browser-use/${UUID}/cancel/$`).test(route)) return { status: 400, text };
  if (method === 'POST' && status === 201 && route === '/api/v1/agents/browser-use/') {
    const body = json();
    return { status, text: JSON.stringify({ ...body, created_at: String(body.created_at).replace(/(\.\d{3})\d+/, '$1') }) };
  }
  if (method === 'GET' && status === 200 && new RegExp(`^/api/v1/agents/browser-use/${UUID}/tasks/$`).test(route)) {
    const page = json();
    return { status, text: JSON.stringify({ ...page, results: [...(page.results as unknown[])].reverse() }) };
  }
  return { status, text };
};

/**
 * A proxy in front of the emulator that alters its answers (by default four, each in one known way:
 * a persistent agent's `short_description` renamed, the 404 of cancelling an unknown task made a
 * 400, a created agent's `created_at` cut to milliseconds, an agent's task page reversed).
 */
async function alteringProxy(target: string, alter: Alter = fourAlterations, rewrite: (route: string, body: Buffer) => Buffer = (_, body) => body): Promise<{ baseUrl: string; server: Server }> {
  const origin = new URL(target).origin;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const name of ['x-api-key', 'content-type', 'accept']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
      const answer = await fetch(`${origin}${path}`, { method, headers, body: chunks.length > 0 ? rewrite(path, Buffer.concat(chunks)) : undefined });
      const { status, text } = alter(method, path.split('?')[0] ?? '', answer.status, await answer.text());
      res.writeHead(status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(status === 204 ? undefined : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, server };
}

describe('conformance against a deployment that differs', () => {
  it('names exactly the four alterations (one --ignore accepted), and writes them to JUnit and the step summary', async () => {
    const proxy = await alteringProxy(emulator.baseUrl);
    const dir = tempDir();
    try {
      const summary = join(dir, 'summary.md');
      const junit = join(dir, 'conformance.xml');
      const result = await against(proxy.baseUrl)(['conformance', '--allow-writes', '--yes', '--json', '--junit', junit, '--ignore', 'ordering'], { env: { GITHUB_STEP_SUMMARY: summary } });
      expect(result.exitCode, result.stderr).toBe(1);
      const report = JSON.parse(result.stdout) as Report;
      const found = report.operations.flatMap((operation) => operation.differences.map((d) => `${operation.name} ${d.rule} ${d.path}`)).sort();
      expect(found).toEqual([
        'legacy-agents.create field-format created_at',
        // The deployment's answer has `summary`, the emulator's lacks it; and the other way round.
        'persistent.get field-extra short_description',
        'persistent.get field-missing summary',
        'tasks.cancel-unknown status ',
        'tasks.get ordering results',
      ]);
      // --ignore ordering: the reversed page is still named, and no longer fails its operation.
      const reordered = report.operations.find((operation) => operation.name === 'tasks.get');
      expect(reordered).toMatchObject({ outcome: 'pass', differences: [{ rule: 'ordering', ignored: true }] });
      const failing = report.operations.filter((operation) => operation.outcome !== 'pass').map((operation) => operation.name);
      expect(failing.sort()).toEqual(['legacy-agents.create', 'persistent.get', 'tasks.cancel-unknown']);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain('<testcase classname="agentctl.conformance" name="persistent.get">');
      expect(xml).toContain('failures="3"');
      const markdown = readFileSync(summary, 'utf8');
      expect(markdown).toContain('| `persistent.get` | `GET /agents/{persistent}/` | `field-missing` | `summary` |');
      expect(await marked()).toEqual([]);
    } finally {
      proxy.server.close();
    }
  });

  it("takes a deployment's plan limits as the known difference they are: no task credits left is 402, and still 100%", async () => {
    const noCredits: Alter = (method, route, status, text) =>
      method === 'POST' && route === '/api/v1/tasks/browser-use/' ? { status: 402, text: JSON.stringify({ message: 'User does not have enough task credits to create a new task.' }) } : { status, text };
    const proxy = await alteringProxy(emulator.baseUrl, noCredits);
    try {
      const result = await against(proxy.baseUrl)(['conformance', '--json']);
      expect(result.exitCode, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.score.percent).toBe(100);
      const refused = report.operations.find((operation) => operation.name === 'tasks.create-refused');
      expect(refused?.differences.map((difference) => difference.known)).toEqual(['task-credits', 'task-credits', 'task-credits']);
    } finally {
      proxy.server.close();
    }
  });

  it('removes what a deployment made of input it should have refused, even read-only', async () => {
    // This deployment takes a blank agent name: the proxy sends a name in its place.
    const takesBlank = (route: string, body: Buffer) => (route === '/api/v1/agents/browser-use/' && body.toString() === '{"name":""}' ? Buffer.from('{"name":"took a blank name"}') : body);
    const proxy = await alteringProxy(emulator.baseUrl, (_, __, status, text) => ({ status, text }), takesBlank);
    try {
      const result = await against(proxy.baseUrl)(['conformance']);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatch(/^fail .* legacy-agents\.create-refused /m);
      expect(result.stdout).toContain('Removed 1 record the deployment made of input it should have refused.');
      const agents = await apiRequest<{ results: Array<{ name: string }> }>(emulator.baseUrl, 'GET', '/agents/browser-use/?page_size=100');
      expect(agents.results.map((agent) => agent.name)).not.toContain('took a blank name');
    } finally {
      proxy.server.close();
    }
  });
});
