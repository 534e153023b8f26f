import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { against, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const OWNER = 'emulator@example.com';
const MISSING = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

interface Agent {
  id: string;
  name: string;
  schedule: string | null;
  is_active: boolean;
  [key: string]: unknown;
}

let counter = 0;
async function createAgent(extra: string[] = []): Promise<Agent> {
  const result = await cli(['persistent', 'create', '--name', `agent-${++counter}-${Date.now()}`, '--charter', 'Watch prices', '--json', ...extra]);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

const json = <T = Record<string, unknown>>(stdout: string): T => JSON.parse(stdout) as T;

describe('persistent agents: create, read, change, delete', () => {
  it('creates an agent with every writable field and reads it back', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'charter.md'), 'Track the Oslo-Rome fare and report drops.');
    const server = '0b6f7c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
    const created = await cli([
      'persistent', 'create', '--name', 'fare-watcher', '--charter-file', join(dir, 'charter.md'), '--schedule', '0 7 * * mon-fri',
      '--paused', '--life-state', 'active', '--whitelist-policy', 'manual', '--preferred-contact', 'EMAIL', '--proactive',
      '--json',
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const agent = json<Agent>(created.stdout);
    expect(agent).toMatchObject({
      name: 'fare-watcher',
      charter: 'Track the Oslo-Rome fare and report drops.',
      schedule: '0 7 * * mon-fri',
      is_active: false,
      life_state: 'active',
      whitelist_policy: 'manual',
      proactive_opt_in: true,
      personal_mcp_server_ids: [],
    });
    expect(agent.preferred_contact_endpoint_id).toMatch(/^[0-9a-f-]{36}$/);
    // The emulator, as a service account without templates or personal MCP servers, refuses both.
    const refused = await cli(['persistent', 'create', '--name', 'fare-watcher-2', '--template-code', 'fare-template', '--mcp-server', server]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("Unknown template code 'fare-template'.");

    const got = await cli(['persistent', 'get', agent.id, '--json']);
    expect(json(got.stdout)).toMatchObject({ id: agent.id, name: 'fare-watcher', schedule: '0 7 * * mon-fri' });
  });

  it('shows a detail view with the schedule described and its next runs', async () => {
    const agent = await createAgent(['--schedule', '@daily']);
    const piped = await cli(['persistent', 'get', agent.id]);
    const rows = Object.fromEntries(piped.stdout.trim().split('\n').map((line) => line.split('\t')));
    expect(rows.schedule).toBe('@daily');
    expect(rows.description).toBeTruthy();
    const next = (rows.next_runs as string).split(', ');
    expect(next).toHaveLength(3);
    for (const time of next) expect(time).toMatch(/T00:00:00\.000Z$/);
    expect(rows.state).toBe('active');

    // An interval's runs count from when the service started it: the view says where to look.
    const interval = await createAgent(['--schedule', '@every 90s']);
    const intervalRows = Object.fromEntries((await cli(['persistent', 'get', interval.id])).stdout.trim().split('\n').map((line) => line.split('\t')));
    // The service's preview describes an interval as the expression itself (describe_schedule).
    expect(intervalRows.description).toBe('@every 90s');
    expect(intervalRows.next_runs).toContain('persistent status');
  });

  it('updates with PATCH (only the flags given) and replaces with PUT (name required)', async () => {
    const agent = await createAgent(['--schedule', '@hourly']);
    const updated = json<Agent>((await cli(['persistent', 'update', agent.id, '--no-schedule', '--paused', '--json'])).stdout);
    expect(updated).toMatchObject({ schedule: null, is_active: false, charter: 'Watch prices' });

    const noName = await cli(['persistent', 'replace', agent.id, '--charter', 'x']);
    expect(noName.exitCode).toBe(2);
    expect(noName.stderr).toContain('--name');

    const replaced = await cli(['persistent', 'replace', agent.id, '--name', `replaced-${agent.id.slice(0, 8)}`, '--charter', 'New charter', '--schedule', '@every 30m', '--active', '--json']);
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    expect(json(replaced.stdout)).toMatchObject({ charter: 'New charter', schedule: '@every 30m', is_active: true });

    const quiet = json<Agent>((await cli(['persistent', 'update', agent.id, '--no-proactive', '--whitelist-policy', 'default', '--json'])).stdout);
    expect(quiet).toMatchObject({ proactive_opt_in: false, whitelist_policy: 'default' });

    const nothing = await cli(['persistent', 'update', agent.id]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('nothing to update');
  });

  it('deletes with --yes, refuses without it when nobody can confirm, and then the agent is gone', async () => {
    const agent = await createAgent();
    const refused = await cli(['persistent', 'delete', agent.id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const deleted = await cli(['persistent', 'delete', agent.id, '--yes', '--json']);
    expect(deleted.exitCode).toBe(0);
    expect(json(deleted.stdout)).toEqual({ id: agent.id, deleted: true });
    const gone = await cli(['persistent', 'get', agent.id]);
    expect(gone.exitCode).toBe(4);
  });

  it('lists agents newest first, every page with --all, and only list-item fields', async () => {
    for (let i = 0; i < 12; i++) await apiRequest(emulator.baseUrl, 'POST', '/agents/', { name: `bulk-${i}`, charter: 'bulk' });
    const all = await cli(['persistent', 'list', '--all', '--page-size', '3', '--jsonl']);
    expect(all.exitCode).toBe(0);
    const items = all.stdout.trim().split('\n').map((line) => json<Agent>(line));
    const names = items.map((item) => item.name);
    expect(names.indexOf('bulk-11')).toBeLessThan(names.indexOf('bulk-0'));
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(items.length).toBeGreaterThanOrEqual(12);
    expect(items[0]).not.toHaveProperty('short_description');

    const page = json<Agent[]>((await cli(['persistent', 'list', '--page-size', '2', '--json'])).stdout);
    expect(page).toHaveLength(2);
    const piped = await cli(['persistent', 'list', '--page-size', '2', '--fields', 'id,name']);
    expect(piped.stdout.trim().split('\n').map((line) => line.split('\t').length)).toEqual([2, 2]);
  });
});

describe('persistent agents: validation before any request', () => {
  it.each([
    [['--name', 'n'.repeat(256)], 'the limit is 255'],
    [['--schedule', '@midnight'], '--schedule "@midnight"'],
    [['--schedule', `@every ${'1m '.repeat(43)}`], 'Ensure this field has no more than 128 characters.'],
    [['--life-state', 'paused'], 'paused'],
    [['--whitelist-policy', 'open'], 'open'],
    [['--preferred-contact', 'slack'], 'not email, sms or an endpoint UUID'],
    [['--mcp-server', 'abc'], 'not a UUID'],
    [['--active', '--paused'], 'contradict'],
  ])('create %j exits 2 (%s)', async (flags, message) => {
    const result = await cli(['persistent', 'create', '--name', 'x', ...flags], { env: { AGENTCTL_BASE_URL: 'http://127.0.0.1:9/api/v1' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('renders the service field error for a duplicate name (exit 1)', async () => {
    const agent = await createAgent();
    const duplicate = await cli(['persistent', 'create', '--name', agent.name]);
    expect(duplicate.exitCode).toBe(1);
    expect(duplicate.stderr).toMatch(/name: /);
  });

  it('exits 4 for an unknown agent and 2 for a malformed id', async () => {
    expect((await cli(['persistent', 'status', MISSING])).exitCode).toBe(4);
    expect((await cli(['persistent', 'timeline', 'nope'])).exitCode).toBe(2);
  });
});

describe('persistent agents: activate and deactivate', () => {
  it('prints the service answer and says when nothing changed', async () => {
    const agent = await createAgent();
    const paused = await cli(['persistent', 'deactivate', agent.id, '--json']);
    expect(json(paused.stdout)).toEqual({ status: 'deactivated', updated: true });
    const again = await cli(['persistent', 'deactivate', agent.id]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('already paused');
    const active = await cli(['persistent', 'activate', agent.id, '--json']);
    expect(json(active.stdout)).toEqual({ status: 'activated', updated: true });
    expect(json<Agent>((await cli(['persistent', 'get', agent.id, '--json'])).stdout).is_active).toBe(true);
  });
});

describe('persistent agents: messages', () => {
  it('sends a message (body from an argument or stdin) and prints it as a timeline line', async () => {
    const agent = await createAgent();
    const sent = await cli(['persistent', 'message', agent.id, 'Check the fare', '--channel', 'email', '--sender', OWNER, '--json']);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(json<{ event: { kind: string } }>(sent.stdout).event.kind).toBe('message');

    const fromStdin = await cli(['persistent', 'message', agent.id, '-', '--channel', 'email', '--sender', OWNER, '--subject', 'Fares', '--metadata', '{"ticket":7}'], {
      input: 'Please look again tomorrow\n',
    });
    expect(fromStdin.exitCode, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout).toContain('Please look again tomorrow');
  });

  it('is refused with 409 for a paused agent (exit 1, with the reactivation hint from the body)', async () => {
    const agent = await createAgent(['--paused']);
    const result = await cli(['persistent', 'message', agent.id, 'hello', '--channel', 'email', '--sender', OWNER]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('409');
    expect(result.stderr).toMatch(/agent_inactive|inactive|paused/i);
  });

  it('is refused with 403 for a sender outside a manual allowlist (exit 1, not an auth failure)', async () => {
    const agent = await createAgent(['--whitelist-policy', 'manual']);
    const result = await cli(['persistent', 'message', agent.id, 'hello', '--channel', 'email', '--sender', 'stranger@example.net']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('403');
  });

  it('is refused with 400 when the agent has no endpoint for the channel and no --recipient is given', async () => {
    const agent = await createAgent();
    const result = await cli(['persistent', 'message', agent.id, 'hello', '--channel', 'sms', '--sender', '+15555550100']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('400');
    // A number that is not the agent's own would be stored with no owner (never processed): refused before sending.
    const before = emulator.requests.length;
    const withRecipient = await cli(['persistent', 'message', agent.id, 'hello', '--channel', 'sms', '--sender', '+15555550100', '--recipient', '+15555550199']);
    expect(withRecipient.exitCode).toBe(2);
    expect(withRecipient.stderr).toContain('--recipient');
    expect(emulator.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it("on web, sends through the service's MCP endpoint (one call, no REST message) when --sender and --recipient are left out", async () => {
    const agent = await createAgent();
    const before = emulator.requests.length;
    const sent = await cli(['persistent', 'message', agent.id, 'Any news?', '--channel', 'web', '--json']);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(json<{ via: string }>(sent.stdout).via).toBe('service-mcp');
    expect(emulator.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /mcp/']);
  });

  it('needs --sender on any other channel, said before any request', async () => {
    const before = emulator.requests.length;
    const result = await cli(['persistent', 'message', MISSING, 'hello', '--channel', 'email']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--sender is needed on the email channel');
    expect(emulator.requests.length).toBe(before);
  });

  it('checks the channel and the metadata before any request', async () => {
    const bad = await cli(['persistent', 'message', MISSING, 'hi', '--channel', 'fax', '--sender', 'me']);
    expect(bad.exitCode).toBe(2);
    const meta = await cli(['persistent', 'message', MISSING, 'hi', '--channel', 'web', '--sender', 'me', '--metadata', '[1,2]']);
    expect(meta.exitCode).toBe(2);
    expect(meta.stderr).toContain('--metadata must be a JSON object');
  });
});

describe('persistent agents: status, web tasks and timeline', () => {
  it('shows processing, running web tasks and the next scheduled run', async () => {
    const agent = await createAgent(['--schedule', '@hourly']);
    await cli(['persistent', 'message', agent.id, '[hang] keep working', '--channel', 'email', '--sender', OWNER]);
    const status = await eventually(async () => {
      const answer = json<{ processing_active: boolean; processing_snapshot: { webTasks: unknown[]; nextScheduledAt: string | null } }>(
        (await cli(['persistent', 'status', agent.id, '--json'])).stdout,
      );
      return answer.processing_active ? answer : undefined;
    }, 10_000, 'a running web task');
    expect(status.processing_snapshot.webTasks).toHaveLength(1);
    expect(status.processing_snapshot.nextScheduledAt).toMatch(/:00:00(\.000)?Z$/);

    const piped = await cli(['persistent', 'status', agent.id]);
    const lines = piped.stdout.trim().split('\n');
    expect(lines).toContain('processing\tyes');
    expect(lines.some((line) => line.startsWith('next_scheduled_at\t'))).toBe(true);
    // Piped, every line starts with its label: the tasks are the `web_task` lines.
    const tasks = lines.filter((line) => line.startsWith('web_task\t'));
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toContain('[hang] keep working');
  });

  it('lists web tasks with a status filter and a limit', async () => {
    const agent = await createAgent();
    await cli(['persistent', 'message', agent.id, '[hang] one', '--channel', 'email', '--sender', OWNER]);
    await cli(['persistent', 'message', agent.id, 'two', '--channel', 'email', '--sender', OWNER]);
    await cli(['persistent', 'message', agent.id, 'three', '--channel', 'email', '--sender', OWNER]);
    const completed = await eventually(async () => {
      const tasks = json<Array<{ status: string }>>((await cli(['persistent', 'web-tasks', agent.id, '--status', 'completed', '--json'])).stdout);
      return tasks.length === 2 ? tasks : undefined;
    }, 10_000, 'two completed web tasks');
    expect(completed.every((task) => task.status === 'completed')).toBe(true);
    const limited = json<unknown[]>((await cli(['persistent', 'web-tasks', agent.id, '--limit', '1', '--json'])).stdout);
    expect(limited).toHaveLength(1);
    expect((await cli(['persistent', 'web-tasks', agent.id, '--limit', '201'])).exitCode).toBe(2);
    expect((await cli(['persistent', 'web-tasks', agent.id, '--status', 'done'])).exitCode).toBe(2);
  });

  it('pages back through more than three timeline windows with --all, every event once, oldest first', async () => {
    const agent = await createAgent();
    for (let i = 1; i <= 8; i++) {
      await apiRequest(emulator.baseUrl, 'POST', `/agents/${agent.id}/messages/`, { channel: 'email', sender: OWNER, body: `[hang] note ${i}` });
    }
    const first = json<{ events: Array<{ cursor: string }>; has_more_older: boolean; oldest_cursor: string }>(
      (await cli(['persistent', 'timeline', agent.id, '--limit', '2', '--json'])).stdout,
    );
    expect(first.events).toHaveLength(2);
    expect(first.has_more_older).toBe(true);

    const all = await cli(['persistent', 'timeline', agent.id, '--limit', '2', '--all', '--json']);
    expect(all.exitCode, all.stderr).toBe(0);
    const events = json<Array<{ kind: string; cursor: string; timestamp: string }>>(all.stdout);
    expect(events.length).toBeGreaterThanOrEqual(8);
    expect(new Set(events.map((event) => event.cursor)).size).toBe(events.length);
    const timestamps = events.map((event) => Date.parse(event.timestamp));
    expect([...timestamps].sort((a, b) => a - b)).toEqual(timestamps);
    const notes = events.map((event) => JSON.stringify(event).match(/note (\d)/)?.[1]).filter(Boolean);
    expect(notes).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);

    // One readable line per event when piped, and the same count as JSON lines.
    const piped = await cli(['persistent', 'timeline', agent.id, '--limit', '3', '--all']);
    expect(piped.stdout.trim().split('\n')).toHaveLength(events.length);
    expect(piped.stdout).toMatch(/\tmessage\t.*-> agent via email "\[hang\] note 1"/);
    const jsonl = await cli(['persistent', 'timeline', agent.id, '--limit', '3', '--all', '--jsonl']);
    expect(jsonl.stdout.trim().split('\n')).toHaveLength(events.length);

    // Paging by hand with the cursor from the first answer.
    const older = json<{ events: Array<{ cursor: string }> }>(
      (await cli(['persistent', 'timeline', agent.id, '--direction', 'older', '--cursor', first.oldest_cursor, '--limit', '2', '--json'])).stdout,
    );
    expect(older.events.map((event) => event.cursor)).toEqual(events.slice(-4, -2).map((event) => event.cursor));

    // And forward again from there with --direction newer; --direction initial is the newest window.
    const newer = json<{ events: Array<{ cursor: string }> }>(
      (await cli(['persistent', 'timeline', agent.id, '--direction', 'newer', '--cursor', events[0]!.cursor, '--limit', '2', '--json'])).stdout,
    );
    expect(newer.events.map((event) => event.cursor)).toEqual(events.slice(1, 3).map((event) => event.cursor));
    const initial = json<{ events: Array<{ cursor: string }> }>(
      (await cli(['persistent', 'timeline', agent.id, '--direction', 'initial', '--limit', '2', '--json'])).stdout,
    );
    expect(initial.events.map((event) => event.cursor)).toEqual(first.events.map((event) => event.cursor));
  });

  it('records the agent reply when a web task completes', async () => {
    const agent = await createAgent();
    await cli(['persistent', 'message', agent.id, 'Find the fare', '--channel', 'email', '--sender', OWNER]);
    const events = await eventually(async () => {
      const all = json<Array<{ kind: string }>>((await cli(['persistent', 'timeline', agent.id, '--all', '--json'])).stdout);
      return all.some((event) => event.kind === 'steps') ? all : undefined;
    }, 10_000, 'the steps event');
    expect(events.filter((event) => event.kind === 'message').length).toBeGreaterThanOrEqual(2);
  });
});
