import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFolder, lockFolder } from '../../src/agents-as-code/index.js';
import { ApiClient } from '../../src/api/client.js';
import { Redactor } from '../../src/api/redact.js';
import { systemClock } from '../../src/contract/clock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createClient } from '../../src/client/index.js';
import { apiRequest } from '../helpers/api.js';
import { connectMcp, data } from '../helpers/mcp.js';
import { against, pidRunning, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;
let other: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  [emulator, other] = await Promise.all([startEmulator({ port: 0, seed: 46 }), startEmulator({ port: 0, seed: 47 })]);
  cli = against(emulator.baseUrl);
});
afterAll(async () => {
  await Promise.all([emulator.close(), other.close()]);
});

interface Agent {
  id: string;
  name: string;
  charter: string;
  schedule: string | null;
  is_active: boolean;
}

const agentFile = (index: number, charter = `Watch fare ${index}.\nWrite when it drops.`) =>
  `---\nname: agent ${index}\nschedule: "@every ${index + 1}h"\nactive: true\nwhitelist_policy: default\n---\n${charter}\n`;

/** A folder of `count` agent files, agent-1.md ... */
function folder(count: number): string {
  const dir = tempDir('agentctl-iac-');
  for (let index = 1; index <= count; index++) writeFileSync(join(dir, `agent-${index}.md`), agentFile(index));
  return dir;
}

async function agentsOf(service: RunningEmulator): Promise<Agent[]> {
  const page = await apiRequest<{ results: Agent[] }>(service.baseUrl, 'GET', '/agents/?page_size=100');
  return page.results;
}

const writes = (service: RunningEmulator, since: number) => service.requests.slice(since).filter((request) => request.method !== 'GET');

describe('agentctl apply and plan', () => {
  it('creates 50 agents from 50 files; a second apply and a plan find nothing to do', async () => {
    emulator.reset();
    const dir = folder(50);
    const first = await cli(['apply', '--dir', dir, '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain('Applied: 50 created, 0 updated, 0 deleted.');
    const agents = await agentsOf(emulator);
    expect(agents).toHaveLength(50);
    expect(agents.find((agent) => agent.name === 'agent 7')).toMatchObject({ charter: 'Watch fare 7.\nWrite when it drops.', schedule: '@every 8h' });
    const lock = JSON.parse(readFileSync(join(dir, 'agentctl.lock.json'), 'utf8'));
    expect(Object.keys(Object.values(lock.services)[0] as object)).toHaveLength(50);

    const before = emulator.requests.length;
    const second = await cli(['apply', '--dir', dir, '--yes']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toContain('Nothing to do: 0 to create, 0 to update, 0 to delete, 50 unchanged.');
    const plan = await cli(['plan', '--dir', dir]);
    expect(plan.exitCode, plan.stdout).toBe(0);
    expect(writes(emulator, before)).toEqual([]);
  });

  it('one edited charter is exactly one update, shown as a diff of the charter', async () => {
    emulator.reset();
    const dir = folder(15);
    expect((await cli(['apply', '--dir', dir, '--yes'])).exitCode).toBe(0);
    writeFileSync(join(dir, 'agent-12.md'), agentFile(12, 'Watch fare 12.\nWrite when it rises.'));
    const plan = await cli(['plan', '--dir', dir, '--json']);
    expect(plan.exitCode).toBe(11);
    const json = JSON.parse(plan.stdout);
    expect(json.counts).toEqual({ create: 0, update: 1, unchanged: 14, delete: 0 });
    const update = json.actions.find((action: { action: string }) => action.action === 'update');
    expect(update).toMatchObject({ file: 'agent-12.md', changes: [{ field: 'charter' }], charter_diff: [' Watch fare 12.', '-Write when it drops.', '+Write when it rises.'] });

    const before = emulator.requests.length;
    expect((await cli(['apply', '--dir', dir, '--yes'])).exitCode).toBe(0);
    expect(writes(emulator, before).map((request) => request.method)).toEqual(['PATCH']);
    expect((await cli(['plan', '--dir', dir])).exitCode).toBe(0);
  });

  it('an agent changed by hand makes plan --check exit 11 with that difference and nothing else', async () => {
    emulator.reset();
    const dir = folder(3);
    expect((await cli(['apply', '--dir', dir, '--yes'])).exitCode).toBe(0);
    expect((await cli(['plan', '--dir', dir, '--check'])).stdout).toBe('');
    const agent = (await agentsOf(emulator)).find((item) => item.name === 'agent 2')!;
    await apiRequest(emulator.baseUrl, 'PATCH', `/agents/${agent.id}/`, { schedule: '@daily', charter: 'Watch fare 2.\nSell everything.' });
    const check = await cli(['plan', '--dir', dir, '--check']);
    expect(check.exitCode).toBe(11);
    expect(check.stdout.split('\n')).toEqual([
      `~ update agent-2.md "agent 2" (${agent.id})`,
      '    schedule: "@daily" -> "@every 3h"',
      '    charter:',
      '       Watch fare 2.',
      '      -Sell everything.',
      '      +Write when it drops.',
      '',
    ]);
  });

  it('a run stopped at seeded random points, then run again, leaves each agent created once', async () => {
    emulator.reset();
    const dir = folder(50);
    const client = new ApiClient({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key', timeoutMs: 5000, userAgent: 'test', redactor: new Redactor() });
    const owner = { process: { pid: process.pid, isRunning: pidRunning }, clock: systemClock, say: () => undefined };
    let seed = 46;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 6; run++) {
      // The run stops at its Nth request, before it is sent or after its answer, before it is recorded.
      const stopAt = 1 + Math.floor(random() * 12);
      const phase = random() < 0.5 ? 'before-send' : 'sent';
      let requests = 0;
      const stopped = applyFolder(client, {
        dir,
        owner,
        confirm: async () => true,
        hooks: {
          onStep(_step, at) {
            if (at === 'before-send') requests++;
            if (requests === stopAt && at === phase) throw new Error(`killed at request ${requests}, ${at}`);
          },
        },
      });
      await expect(stopped).rejects.toThrow('killed at request');
    }
    const rerun = await cli(['apply', '--dir', dir, '--yes']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const agents = await agentsOf(emulator);
    expect(agents).toHaveLength(50);
    expect(new Set(agents.map((agent) => agent.name)).size).toBe(50);
    expect(emulator.requests.filter((request) => request.method === 'POST' && request.status === 201)).toHaveLength(50);
    expect((await cli(['plan', '--dir', dir])).exitCode).toBe(0);
  });

  it('refuses a second apply of the same folder, under another name, while one runs', async () => {
    emulator.reset();
    const dir = folder(2);
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    const held = await lockFolder(dir, { process: { pid: process.pid, isRunning: pidRunning }, clock: systemClock, say: () => undefined });
    try {
      const second = await cli(['apply', '--dir', link, '--yes']);
      expect(second.exitCode).toBe(2);
      expect(second.stderr).toMatch(/agent folder .* is in use by another run/);
      expect(emulator.requests).toEqual([]);
    } finally {
      held.release();
      rmSync(link);
    }
  });

  it('without a terminal, apply needs --yes and sends nothing without it', async () => {
    emulator.reset();
    const result = await cli(['apply', '--dir', folder(2)]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('refusing without --yes');
    expect(writes(emulator, 0)).toEqual([]);
  });

  it('prunes only the agents it created, and an adopted one only when named', async () => {
    emulator.reset();
    await apiRequest(emulator.baseUrl, 'POST', '/agents/', { name: 'agent 1', charter: 'made by hand' });
    const dir = folder(3);
    const first = await cli(['apply', '--dir', dir, '--yes']);
    expect(first.stderr).toContain('adopted');
    rmSync(join(dir, 'agent-1.md'));
    rmSync(join(dir, 'agent-2.md'));
    const plan = await cli(['plan', '--dir', dir, '--prune']);
    expect(plan.stdout).toContain('- delete agent-2.md "agent 2"');
    expect(plan.stdout).toContain('keep agent-1.md "agent 1"');
    expect((await cli(['apply', '--dir', dir, '--prune', '--yes'])).exitCode).toBe(0);
    expect((await agentsOf(emulator)).map((agent) => agent.name).sort()).toEqual(['agent 1', 'agent 3']);
    expect((await cli(['apply', '--dir', dir, '--prune-agent', 'agent 1', '--yes'])).exitCode).toBe(0);
    expect((await agentsOf(emulator)).map((agent) => agent.name)).toEqual(['agent 3']);
  });

  it('sets by an update what the create of the service leaves out (proactive: false)', async () => {
    emulator.reset();
    const dir = tempDir('agentctl-iac-');
    writeFileSync(join(dir, 'quiet.md'), '---\nname: quiet\nproactive: false\n---\nStay quiet.\n');
    expect((await cli(['apply', '--dir', dir, '--yes'])).exitCode).toBe(0);
    const [agent] = await agentsOf(emulator);
    expect(agent).toMatchObject({ name: 'quiet', proactive_opt_in: false });
    expect((await cli(['plan', '--dir', dir])).exitCode).toBe(0);
  });

  it('preferred_contact email is in sync once applied (the lock file recalls the endpoint), and a renamed file keeps its agent', async () => {
    emulator.reset();
    const dir = tempDir('agentctl-iac-');
    writeFileSync(join(dir, 'mail.md'), '---\nname: mail\npreferred_contact: email\n---\nWrite to me.\n');
    expect((await cli(['apply', '--dir', dir, '--yes'])).exitCode).toBe(0);
    expect((await cli(['plan', '--dir', dir])).exitCode).toBe(0);
    const [agent] = await agentsOf(emulator);
    await apiRequest(emulator.baseUrl, 'PATCH', `/agents/${agent!.id}/`, { preferred_contact_endpoint: null });
    expect((await cli(['plan', '--dir', dir, '--check'])).stdout).toContain('preferred_contact: null -> "email"');
    expect((await cli(['apply', '--dir', dir, '--yes'])).exitCode).toBe(0);

    writeFileSync(join(dir, 'renamed.md'), readFileSync(join(dir, 'mail.md')));
    rmSync(join(dir, 'mail.md'));
    const before = emulator.requests.length;
    const renamed = await cli(['apply', '--dir', dir, '--prune', '--yes']);
    expect(renamed.exitCode, renamed.stderr).toBe(0);
    expect(writes(emulator, before)).toEqual([]);
    const lock = JSON.parse(readFileSync(join(dir, 'agentctl.lock.json'), 'utf8'));
    expect(Object.values(lock.services)[0]).toEqual({ 'renamed.md': expect.objectContaining({ id: agent!.id, created: true }) });
  });

  it('names the file, the line and the field of a mistake, before any request', async () => {
    emulator.reset();
    const dir = folder(1);
    writeFileSync(join(dir, 'bad.md'), '---\nname: bad\nactive: sometimes\n---\nx\n');
    const result = await cli(['plan', '--dir', dir]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('bad.md:3: active: must be true or false');
    expect(emulator.requests).toEqual([]);
  });
});

describe('hostile folders', () => {
  it('refuses an agent file that is a symbolic link or a FIFO, and a lock file whose id is a path, sending nothing', async () => {
    emulator.reset();
    const secret = join(tempDir('agentctl-iac-'), 'id_ed25519');
    writeFileSync(secret, 'PRIVATE KEY');
    const linked = folder(1);
    symlinkSync(secret, join(linked, 'key.md'));
    const link = await cli(['apply', '--dir', linked, '--yes']);
    expect([link.exitCode, link.stderr]).toEqual([2, expect.stringContaining('key.md:1: file: is a symbolic link')]);
    const fifo = folder(1);
    execFileSync('mkfifo', [join(fifo, 'pipe.md')]);
    const piped = await cli(['plan', '--dir', fifo]);
    expect([piped.exitCode, piped.stderr]).toEqual([2, expect.stringContaining('pipe.md:1: file: is a FIFO')]);
    const locked = folder(1);
    writeFileSync(join(locked, 'agentctl.lock.json'), JSON.stringify({ version: 1, services: { [emulator.baseUrl]: { 'agent-1.md': { id: '../../tasks', created: true } } } }));
    const hostile = await cli(['plan', '--dir', locked]);
    expect([hostile.exitCode, hostile.stderr]).toEqual([2, expect.stringContaining('its id is not a UUID')]);
    expect(emulator.requests).toEqual([]);
  });

  it('refuses a folder, an oversized file and a file that is not UTF-8 where an agent file should be, naming each, sending nothing', async () => {
    emulator.reset();
    const cases: Array<[string, (path: string) => void, string]> = [
      ['dir.md', (path) => mkdirSync(path), 'dir.md:1: file: is a folder, not a regular file'],
      ['big.md', (path) => writeFileSync(path, `---\nname: big\n---\n${'x'.repeat(1024 * 1024)}`), 'big.md:1: file: is 1048594 bytes; an agent file is at most 1048576 bytes'],
      ['latin1.md', (path) => writeFileSync(path, Buffer.from('---\nname: caf\xe9\n---\n', 'latin1')), 'latin1.md:1: file: is not UTF-8 text'],
    ];
    for (const [file, make, words] of cases) {
      const dir = folder(1);
      make(join(dir, file));
      const result = await cli(['plan', '--dir', dir]);
      expect([result.exitCode, result.stderr]).toEqual([2, expect.stringContaining(words)]);
    }
    expect(emulator.requests).toEqual([]);
  });

  it('refuses to adopt by a name two agents of the service share', async () => {
    emulator.reset();
    const made = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: 'agent 1', charter: 'one' });
    // The emulator refuses a second agent of a name, as the service does; another service (or an older one) may not.
    const twin = { ...emulator.state.persistentAgents.get(made.id)!, id: '0b6f7c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', browser_use_agent_id: '1b6f7c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', seq: 99 };
    emulator.state.addPersistentAgent(twin);
    const result = await cli(['plan', '--dir', folder(1)]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`2 agents on the service are named "agent 1" (`);
    expect(result.stderr).toContain(twin.id);
  });
});

describe('agentctl export', () => {
  it('writes files a plan finds nothing to do with, and that copy the agents to another service', async () => {
    emulator.reset();
    other.reset();
    await apiRequest(emulator.baseUrl, 'POST', '/agents/', { name: 'Scout', charter: 'Watch.\n---\nname: x', schedule: '@daily', is_active: false, daily_credit_limit: 30, preferred_llm_tier: 'premium' });
    await apiRequest(emulator.baseUrl, 'POST', '/agents/', { name: '../../etc/passwd\u001b[2J', charter: 'hostile' });
    const dir = join(tempDir('agentctl-iac-'), 'agents');
    const exported = await cli(['export', '--dir', dir]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['agentctl.lock.json', 'etc-passwd-2j.md', 'scout.md']);
    expect(readFileSync(join(dir, 'scout.md'), 'utf8')).toContain('daily_credit_limit: 30');
    expect((await cli(['plan', '--dir', dir])).stdout).toContain('Nothing to do');

    const there = against(other.baseUrl);
    expect((await there(['apply', '--dir', dir, '--yes'])).exitCode).toBe(0);
    const copied = (await agentsOf(other)).find((agent) => agent.name === 'Scout')!;
    const detail = await apiRequest<Record<string, unknown>>(other.baseUrl, 'GET', `/agents/${copied.id}/`);
    expect(detail).toMatchObject({ charter: 'Watch.\n---\nname: x', schedule: '@daily', is_active: false, daily_credit_limit: 30, preferred_llm_tier: 'premium' });
    expect((await there(['plan', '--dir', dir])).exitCode).toBe(0);
    expect((await cli(['plan', '--dir', dir])).exitCode).toBe(0);
  });
});

describe('the library and the MCP server', () => {
  it('client.agents.plan and apply: the plan as plan --json gives it; apply needs yes or confirm', async () => {
    emulator.reset();
    const dir = folder(3);
    const client = createClient({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
    const plan = await client.agents.plan({ dir });
    expect(plan).toMatchObject({ changes: true, counts: { create: 3, update: 0, unchanged: 0, delete: 0 } });
    expect((await client.agents.plan({ files: [{ file: 'x.md', text: agentFile(9) }] })).counts.create).toBe(1);
    await expect(client.agents.apply({ dir })).rejects.toMatchObject({ name: 'InputError', field: 'yes' });
    const seen: number[] = [];
    const declined = await client.agents.apply({ dir, confirm: (shown) => seen.push(shown.counts.create) < 0 });
    expect([seen, declined.applied, await agentsOf(emulator)]).toEqual([[3], [], []]);
    const applied = await client.agents.apply({ dir, yes: true });
    expect(applied.applied.map((step) => step.action)).toEqual(['create', 'create', 'create']);
    expect((await client.agents.plan({ dir })).changes).toBe(false);
  });

  it('MCP: as_code_plan and as_code_apply work on --agents-dir only, are off by default, and apply asks first', async () => {
    emulator.reset();
    const dir = folder(2);
    const plain = await connectMcp({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
    expect((await plain.client.listTools()).tools.map((tool) => tool.name)).not.toContain('as_code_plan');
    await plain.close();
    const answers: string[] = [];
    const mcp = await connectMcp({
      baseUrl: emulator.baseUrl,
      apiKey: 'emulator-key',
      options: { toolsets: ['as-code'], agentsDir: dir },
      elicit: (message) => (answers.push(message), answers.length === 1 ? 'decline' : 'accept'),
    });
    const tools = (await mcp.client.listTools()).tools;
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint])).toEqual([
      ['as_code_plan', true, false],
      ['as_code_apply', false, true],
    ]);
    expect(data(await mcp.call('as_code_plan')).counts.create).toBe(2);
    expect(data(await mcp.call('as_code_apply'))).toMatchObject({ declined: true, applied: [] });
    expect(await agentsOf(emulator)).toEqual([]);
    expect(data(await mcp.call('as_code_apply')).applied).toHaveLength(2);
    expect(answers[1]).toContain('2 to create');
    expect(data(await mcp.call('as_code_plan')).changes).toBe(false);
    await mcp.close();
  });
});
