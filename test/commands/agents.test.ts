import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 300 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

describe('agents', () => {
  it('creates, reads, updates, replaces and deletes an agent', async () => {
    const created = await cli(['agents', 'create', '--name', 'crud-agent', '--json']);
    expect(created.exitCode).toBe(0);
    const agent = JSON.parse(created.stdout);
    expect(agent).toMatchObject({ name: 'crud-agent' });
    expect(agent.id).toMatch(/^[0-9a-f-]{36}$/);

    const got = await cli(['agents', 'get', agent.id, '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: agent.id, name: 'crud-agent' });

    const updated = await cli(['agents', 'update', agent.id, '--name', 'crud-renamed', '--json']);
    expect(JSON.parse(updated.stdout).name).toBe('crud-renamed');

    const replaced = await cli(['agents', 'replace', agent.id, '--name', 'crud-replaced', '--json']);
    expect(JSON.parse(replaced.stdout).name).toBe('crud-replaced');

    const deleted = await cli(['agents', 'delete', agent.id, '--yes', '--json']);
    expect(deleted.exitCode).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id: agent.id, deleted: true });

    const gone = await cli(['agents', 'get', agent.id]);
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toContain('404');
    expect(gone.stdout).toBe('');
  });

  it('prints a detail view as label<TAB>value lines when piped', async () => {
    const created = await cli(['agents', 'create', '--name', 'piped-agent']);
    expect(created.exitCode).toBe(0);
    const lines = Object.fromEntries(created.stdout.trim().split('\n').map((line) => line.split('\t')));
    expect(lines.name).toBe('piped-agent');
    expect(lines.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses to delete without --yes when nobody can confirm', async () => {
    const created = JSON.parse((await cli(['agents', 'create', '--name', 'keep-me', '--json'])).stdout);
    const refused = await cli(['agents', 'delete', created.id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await cli(['agents', 'get', created.id])).exitCode).toBe(0);
  });

  it('validates names and ids before any request', async () => {
    // The service's model takes 255 characters (its OpenAPI document says 64): 65 is a name it accepts.
    const long = await cli(['agents', 'create', '--name', 'x'.repeat(256)]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toContain('--name is 256 characters long; the limit is 255');
    expect((await cli(['agents', 'create', '--name', 'x'.repeat(65)])).exitCode).toBe(0);
    const badId = await cli(['agents', 'get', 'not-a-uuid']);
    expect(badId.exitCode).toBe(2);
    expect(badId.stderr).toContain('agent id "not-a-uuid" is not a UUID');
    const noChange = await cli(['agents', 'update', '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f']);
    expect(noChange.exitCode).toBe(2);
  });

  it('renders the model\'s own error (__all__: a duplicate name, 400) as the message alone', async () => {
    await cli(['agents', 'create', '--name', 'twin']);
    const twin = await cli(['agents', 'create', '--name', 'twin']);
    expect(twin.exitCode).toBe(1);
    expect(twin.stderr).toMatch(/400/);
    expect(twin.stderr).toContain('Browser use agent with this User and Name already exists.');
    expect(twin.stderr).not.toContain('__all__');
  });
});

describe('pagination', () => {
  beforeAll(async () => {
    for (let i = 0; i < 34; i++) {
      await apiRequest(emulator.baseUrl, 'POST', '/agents/browser-use/', { name: `page-agent-${String(i).padStart(2, '0')}` });
    }
  });

  it('streams every page with --all --jsonl, newest first, without duplicates', async () => {
    const result = await cli(['agents', 'list', '--all', '--jsonl', '--page-size', '10']);
    expect(result.exitCode).toBe(0);
    const items = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const names = items.map((item) => item.name).filter((name: string) => name.startsWith('page-agent-'));
    expect(names).toHaveLength(34);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(names[0]).toBe('page-agent-33');
    expect(names[33]).toBe('page-agent-00');
  });

  it('prints all pages as one JSON array with --all --json', async () => {
    const result = await cli(['agents', 'list', '--all', '--json', '--page-size', '7']);
    const items = JSON.parse(result.stdout);
    expect(Array.isArray(items)).toBe(true);
    expect(items.length).toBeGreaterThanOrEqual(34);
  });

  it('prints one page with --page and --page-size, and keeps --fields', async () => {
    const result = await cli(['agents', 'list', '--page', '2', '--page-size', '5', '--json', '--fields', 'name']);
    const items = JSON.parse(result.stdout);
    expect(items).toHaveLength(5);
    for (const item of items) expect(Object.keys(item)).toEqual(['name']);
  });

  it('pipes tab-separated rows with no header', async () => {
    const result = await cli(['agents', 'list', '--page-size', '3', '--fields', 'name,id']);
    const rows = result.stdout.trim().split('\n');
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatch(/^[^\t]+\t[0-9a-f-]{36}$/);
  });

  it('answers a page past the end with exit 4, and bad page sizes with exit 2', async () => {
    const past = await cli(['agents', 'list', '--page', '999']);
    expect(past.exitCode).toBe(4);
    expect(past.stderr).toContain('Invalid page.');
    for (const [size, shown] of [['101', '101'], ['0', '0']]) {
      const bad = await cli(['agents', 'list', '--page-size', size as string]);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain(`error: --page-size must be between 1 and 100, got ${shown}`);
    }
    const notNumber = await cli(['tasks', 'list', '--page-size', 'ten']);
    expect(notNumber.exitCode).toBe(2);
    expect(notNumber.stderr).toContain('error: --page-size must be a whole number, got "ten"');
  });

  it('a rename onto a taken name is the service\'s 500: sent once, not retried as if transient, and explained (exit 1)', async () => {
    await cli(['agents', 'create', '--name', 'clash-taken']);
    const other = JSON.parse((await cli(['agents', 'create', '--name', 'clash-other', '--json'])).stdout) as { id: string };
    for (const verb of ['replace', 'update']) {
      const before = emulator.requests.length;
      const result = await cli(['agents', verb, other.id, '--name', 'clash-taken']);
      expect(result.exitCode, verb).toBe(1);
      expect(result.stderr).toMatch(/500/);
      expect(result.stderr).toMatch(/check before sending it again/);
      expect(emulator.requests.slice(before).filter((request) => request.path.startsWith(`/agents/browser-use/${other.id}/`)).map((request) => request.method), verb).toEqual([verb === 'replace' ? 'PUT' : 'PATCH']);
    }
  });
});
