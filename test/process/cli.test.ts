import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { BIN, agentctl, against, spawnAgentctl, tempDir } from '../helpers/cli.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

let emulator: RunningEmulator;
const requests: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 300, log: (line) => requests.push(line) });
});
afterAll(() => emulator.close());

/** Runs agentctl, reads the first line of its stdout, then closes the pipe, as `| head -1` does. */
async function readFirstLineThenClose(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  // The first line, or the end of a run that printed none (then `first` is '' and stderr says why):
  // waited for as events, never for a time.
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const first = await Promise.race([new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)), exit.then(() => '')]);
  child.stdout.destroy();
  const code = await exit;
  return { first, code, stderr };
}

describe('the program', () => {
  it('runs --jq from the built bundle (jq-wasm is CommonJS and finds its WebAssembly there too)', async () => {
    const result = await spawnAgentctl(['schedule-preview', '@daily', '--jq', '.next | length']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('5\n');
    expect(result.exitCode).toBe(0);
  });

  it('prints its version', async () => {
    const result = await agentctl(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('prints an overview and help with examples', async () => {
    const overview = await agentctl([]);
    expect(overview.exitCode).toBe(0);
    for (const noun of ['agents', 'tasks', 'auth', 'config', 'api', 'emulator']) expect(overview.stdout).toContain(noun);
    const help = await agentctl(['tasks', 'create', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('--follow');
  });

  it('checks responses without loading zod, and loads it from the bundle to say what is wrong with one', async () => {
    const stub = await stubServer((_req, res) => sendJson(res, 200, { count: 1, results: [{ id: 'x', status: 'weird' }] }));
    // NODE_DEBUG=module names every file Node loads; zod is bundled with the response schemas.
    const env = { NODE_DEBUG: 'module', AGENTCTL_API_KEY: 'emulator-key' };
    const fine = await spawnAgentctl(['tasks', 'list', '--json'], { env: { ...env, AGENTCTL_BASE_URL: emulator.baseUrl } });
    const wrong = await spawnAgentctl(['tasks', 'list', '--json'], { env: { ...env, AGENTCTL_BASE_URL: stub.baseUrl } });
    await stub.close();
    const loadsSchemas = /load "[^"]*chunks[\\/]responses-[^"]*"/;
    expect(fine.exitCode).toBe(0);
    expect(fine.stderr).not.toMatch(loadsSchemas);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toMatch(loadsSchemas);
    expect(wrong.stderr).toContain('results.0.status: Invalid option: expected one of');
  });

  it('accepts global options before and after the subcommand', async () => {
    const env = { AGENTCTL_API_KEY: 'emulator-key' };
    const before = await agentctl(['--base-url', emulator.baseUrl, '--json', 'agents', 'list'], { env });
    const after = await agentctl(['agents', 'list', '--base-url', emulator.baseUrl, '--json'], { env });
    expect(before.exitCode).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });

  it('traces HTTP with --verbose on stderr, key redacted', async () => {
    const result = await against(emulator.baseUrl, 'emulator-key')(['agents', 'list', '--verbose', '--json']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('> GET ');
    expect(result.stderr).toContain('x-api-key: ***');
    expect(result.stderr).toMatch(/< 200 GET/);
    expect(result.stderr).not.toContain('emulator-key');
    JSON.parse(result.stdout);
  });

  it('uses no colour when piped, even for errors', async () => {
    const result = await against(emulator.baseUrl)(['tasks', 'list']);
    expect(result.stdout + result.stderr).not.toContain('\u001b[');
  });

  it('exits quietly when stdout is closed early (| head)', async () => {
    for (let i = 0; i < 30; i++) await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: `[hang] pipe ${i}` });
    const { first, code, stderr } = await readFirstLineThenClose(['tasks', 'list', '--all', '--jsonl', '--page-size', '5']);
    expect(JSON.parse(first)).toHaveProperty('id');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    // jq-wasm sets process.exitCode to jq's status (5 after error()): not what a run whose reader left exits with.
    const filtered = await readFirstLineThenClose(['tasks', 'list', '--all', '--jsonl', '--page-size', '5', '--jq', '.id, error("x")']);
    expect(filtered.first).toMatch(/^[0-9a-f-]{36}$/);
    expect(filtered.code).toBe(0);
  });

  it('exits quietly when the reader of the overview, help or version is already gone', async () => {
    const dir = tempDir();
    for (const args of [[], ['tasks', '--help'], ['--version']]) {
      // `true` exits at once, so agentctl writes into a closed pipe.
      const script = `"$0" "$1" ${args.join(' ')} 2>"$2"; echo $? >"$3"`;
      await execa('sh', ['-c', `(${script}) | true`, process.execPath, BIN, join(dir, 'err'), join(dir, 'code')]);
      expect(readFileSync(join(dir, 'err'), 'utf8'), `agentctl ${args.join(' ')}`).toBe('');
      expect(readFileSync(join(dir, 'code'), 'utf8').trim()).toBe('0');
    }
  });

  // SIGTERM (a CI job cancelled, `timeout`, `kill`) says the same as Ctrl-C.
  it.each(['SIGINT', 'SIGTERM'] as const)('on %s during a wait, says the task keeps running, how to resume, and exits 130', async (signal) => {
    const task = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: '[hang] interrupt me' });
    const child = spawn(process.execPath, [BIN, 'tasks', 'wait', task.id, '--interval', '0.05'], {
      env: { PATH: process.env.PATH, AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    // Interrupt only once the wait is really polling the service.
    await eventually(() => requests.some((line) => line.includes(task.id)) || undefined, 10_000, 'the first poll');
    child.kill(signal);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain('keeps running');
    expect(stderr).toContain(`agentctl tasks wait ${task.id}`);
  });

  it('on Ctrl-C during create --follow, prints the new task\'s resume command and exits 130', async () => {
    const child = spawn(process.execPath, [BIN, 'tasks', 'create', '[hang] follow then interrupt', '--follow', '--interval', '0.05'], {
      env: { PATH: process.env.PATH, AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    const id = await eventually(() => /Created task ([0-9a-f-]{36})/.exec(stderr)?.[1], 10_000, 'the created task');
    await eventually(() => requests.some((line) => line.includes(`GET /api/v1/tasks/browser-use/${id}/`)) || undefined, 10_000, 'the first poll');
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain(`Task ${id} keeps running`);
    expect(stderr).toContain(`agentctl tasks wait ${id}`);
    expect(stdout).toBe('');
  });

  it('has many workers wait out an unreachable service without a listener-leak warning on stderr', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const input = join(tempDir('agentctl-batch-'), 'tasks.txt');
    writeFileSync(input, Array.from({ length: 16 }, (_, i) => `prompt ${i}`).join('\n'));
    const result = await spawnAgentctl(['tasks', 'run-batch', input, '--concurrency', '16'], {
      env: { AGENTCTL_BASE_URL: `http://127.0.0.1:${port}/api/v1`, AGENTCTL_API_KEY: 'emulator-key' },
    });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr).not.toContain('Warning');
  });
});

/** An agent with `count` tasks whose prompts are 2 KB long: a page of 100 is ~200 KB of output. */
async function agentWithLongTasks(name: string, count: number) {
  const agent = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/browser-use/', { name });
  const path = `/agents/browser-use/${agent.id}/tasks/`;
  const filler = 'x'.repeat(2000);
  // Straight into the emulator's records: a thousand creates over HTTP took most of this file's time.
  for (let i = 0; i < count; i++) emulator.state.newTask({ agent_id: agent.id, prompt: `[hang] ${i} ${filler}` });
  return { agent, path };
}

describe('a long list through a slow pipe', () => {
  it('keeps every line of --all --jsonl in the service\'s order when the reader falls behind', async () => {
    const { agent, path } = await agentWithLongTasks('slow pipe', 1000);
    const expected: string[] = [];
    for (let page = 1; page <= 10; page++) expected.push(...(await apiRequest<{ results: { id: string }[] }>(emulator.baseUrl, 'GET', `${path}?page=${page}&page_size=100`)).results.map((task) => task.id));

    const child = spawn(process.execPath, [BIN, 'tasks', 'list', '--agent', agent.id, '--all', '--jsonl'], {
      env: { PATH: process.env.PATH, AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // A reader slower than the writer: the pipe fills and empties again and again (EAGAIN, then room).
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 1);
    });
    await new Promise((resolve) => child.once('close', resolve));
    expect(child.exitCode).toBe(0);
    expect(out.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(expected);
  });

  it('ends quietly when the reader goes away while large writes are queued (| head)', async () => {
    const { agent } = await agentWithLongTasks('gone reader', 300);
    // Pages of 100 tasks of 2 KB: each batch is far above the size that goes through the stream.
    const { first, code, stderr } = await readFirstLineThenClose(['tasks', 'list', '--agent', agent.id, '--all', '--jsonl']);
    expect(JSON.parse(first)).toHaveProperty('id');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

describe('api', () => {
  const cli = () => against(emulator.baseUrl);

  it('sends raw requests to any route', async () => {
    const ping = await cli()(['api', 'GET', '/ping/']);
    expect(ping.exitCode).toBe(0);
    expect(JSON.parse(ping.stdout)).toMatchObject({ pong: true });
    const created = await cli()(['api', 'POST', '/agents/browser-use/', '--data', '{"name":"raw-agent"}']);
    const agent = JSON.parse(created.stdout);
    expect(agent.name).toBe('raw-agent');
    const deleted = await cli()(['api', 'DELETE', `/agents/browser-use/${agent.id}`, '--json']);
    expect(deleted.exitCode).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ status: 204 });
  });

  it('follows every page with --paginate', async () => {
    const result = await cli()(['api', 'GET', '/tasks/browser-use/?page_size=3', '--paginate']);
    expect(result.exitCode).toBe(0);
    const items = JSON.parse(result.stdout);
    expect(items.length).toBeGreaterThan(3);
  });

  it('reads a body from stdin and refuses bad input', async () => {
    const fromStdin = await cli()(['api', 'POST', '/agents/browser-use/', '--data', '@-'], { input: '{"name":"stdin-agent"}' });
    expect(JSON.parse(fromStdin.stdout).name).toBe('stdin-agent');
    expect((await cli()(['api', 'POST', '/agents/browser-use/', '--data', '{bad'])).exitCode).toBe(2);
    expect((await cli()(['api', 'FETCH', '/ping/'])).exitCode).toBe(2);
    expect((await cli()(['api', 'POST', '/ping/', '--paginate'])).exitCode).toBe(2);
  });
});

// Start-up is a budget (docs/performance.md): what the answers that need no network read is
// checked here by file, since time itself is measured by `npm run bench`, never by a test.

/** The files a run of agentctl loaded as modules, and the builtins it compiled beyond bare node. */
function loadedBy(args: string[], status = 0): { dist: string[]; builtins: string[] } {
  const probe = join(tempDir('agentctl-probe-'), 'probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => require('node:fs').writeSync(3, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));",
  );
  const run = spawnSync(process.execPath, ['--require', probe, BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: tempDir('agentctl-home-') },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  expect(run.status, run.stderr).toBe(status);
  const { files, builtins } = JSON.parse(String(run.output[3])) as { files: string[]; builtins: string[] };
  return { dist: files.filter((file) => file.includes(`${sep}dist${sep}`)), builtins };
}

describe('start-up', () => {
  it.each([[['--version']], [['--help']], [['tasks', 'create', '--help']]])('%j reads one file of the bundle and starts no ES module loader nor the code cache', (args) => {
    const { dist, builtins } = loadedBy(args);
    expect(dist.map((file) => file.slice(file.lastIndexOf(`${sep}dist${sep}`) + 1))).toEqual([`dist${sep}cli${sep}main.js`]);
    expect(builtins.filter((name) => /esm\/(module_job|translators)/.test(name))).toEqual([]);
    // main.js is small enough to compile as it is (bin/compile-cache.js's MIN_SIZE): a cache set up
    // for it (node:vm loaded, the cache read) cost ~1 ms, 3% of a start-up, when it grew past 8 KB.
    expect(builtins).not.toContain('NativeModule vm');
  });
  it('webhook-listen loads undici (llhttp, its HTTP parser) only to forward events', () => {
    const holdsUndici = (files: string[]) => files.some((file) => readFileSync(file, 'utf8').includes('llhttp'));
    // Both time out at once (exit 7): what they loaded is the point.
    expect(holdsUndici(loadedBy(['webhook-listen', '--timeout', '0.01'], 7).dist)).toBe(false);
    expect(holdsUndici(loadedBy(['webhook-listen', '--timeout', '0.01', '--forward-to', 'http://127.0.0.1:9/relay'], 7).dist)).toBe(true);
  });
});
