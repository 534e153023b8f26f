// The fault matrix: every command family x every kind of fault, through a fault-injecting proxy in
// front of the in-process emulator, each command run in process on a fake clock (backoff, Retry-After
// and outages of a minute take no real time). Each cell checks the documented exit code and message,
// no stack trace, no duplicate POST and no lost output. With FAULT_MATRIX_OUT=file the table of what
// was measured is written there (docs/reliability.md shows it).
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against, type CliResult } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { FaultProxy, type FaultPlan } from './proxy.js';

type Kind = 'get' | 'post' | 'wait' | 'all';

interface Family {
  name: string;
  kind: Kind;
  args: (data: Data) => string[];
  /** The request the fault hits. */
  match: (method: string, path: string, data: Data) => boolean;
  /** For waits: let the first poll through, so the fault comes mid-wait. */
  skip?: number;
  /** Fresh records for this cell (a task to wait for or cancel). */
  prepare?: (data: Data) => Promise<Partial<Data>>;
  /** What stdout must hold when the command succeeds. */
  output: (stdout: string, data: Data) => void;
}

interface Data {
  emulator: string;
  agentId: string;
  persistentId: string;
  taskId: string;
}

interface Fault {
  name: string;
  plan: Omit<FaultPlan, 'match' | 'skip'>;
  /** One-shot commands get a request timeout so a slow answer times out. */
  args?: string[];
  /** What one-shot commands get instead of `plan`. */
  oneShotPlan?: Omit<FaultPlan, 'match' | 'skip'>;
}

const LISTED = 35;
const PAGE = 10;
const uuid = '[0-9a-f-]{36}';

const families: Family[] = [
  {
    name: 'tasks create',
    kind: 'post',
    args: () => ['tasks', 'create', 'Find the fare', '--json'],
    match: (method, path) => method === 'POST' && path === '/tasks/browser-use/',
    output: (stdout) => expect(JSON.parse(stdout).id).toMatch(new RegExp(uuid)),
  },
  {
    name: 'tasks get',
    kind: 'get',
    args: (data) => ['tasks', 'get', data.taskId, '--json'],
    match: (method, path, data) => method === 'GET' && path === `/tasks/browser-use/${data.taskId}/`,
    output: (stdout, data) => expect(JSON.parse(stdout).id).toBe(data.taskId),
  },
  {
    name: 'tasks list',
    kind: 'get',
    args: () => ['tasks', 'list', '--json'],
    match: (method, path) => method === 'GET' && /^\/tasks\/browser-use\/(\?|$)/.test(path),
    output: (stdout) => expect(JSON.parse(stdout).length).toBeGreaterThan(0),
  },
  {
    name: 'tasks list --all',
    kind: 'all',
    args: (data) => ['tasks', 'list', '--agent', data.agentId, '--all', '--page-size', String(PAGE), '--json'],
    match: (method, path) => method === 'GET' && /\/tasks\/\?.*page=3/.test(path),
    output: (stdout) => expect(JSON.parse(stdout)).toHaveLength(LISTED),
  },
  {
    name: 'tasks wait',
    kind: 'wait',
    skip: 1,
    prepare: async (data) => ({ taskId: (await apiRequest<{ id: string }>(data.emulator, 'POST', '/tasks/browser-use/', { prompt: 'wait for me' })).id }),
    args: (data) => ['tasks', 'wait', data.taskId, '--json'],
    match: (method, path, data) => method === 'GET' && path === `/tasks/browser-use/${data.taskId}/`,
    output: (stdout) => expect(JSON.parse(stdout).status).toBe('completed'),
  },
  {
    name: 'tasks create --follow',
    kind: 'wait',
    skip: 1,
    args: () => ['tasks', 'create', 'Follow me', '--follow', '--json'],
    match: (method, path) => method === 'GET' && new RegExp(`^/tasks/browser-use/${uuid}/$`).test(path),
    output: (stdout) => expect(JSON.parse(stdout).status).toBe('completed'),
  },
  {
    name: 'tasks cancel',
    kind: 'post',
    prepare: async (data) => ({ taskId: (await apiRequest<{ id: string }>(data.emulator, 'POST', '/tasks/browser-use/', { prompt: '[hang] cancel me' })).id }),
    args: (data) => ['tasks', 'cancel', data.taskId, '--json'],
    match: (method, path, data) => method === 'POST' && path === `/tasks/browser-use/${data.taskId}/cancel/`,
    output: (stdout) => expect(stdout).toContain('cancel'),
  },
  {
    name: 'agents list',
    kind: 'get',
    args: () => ['agents', 'list', '--json'],
    match: (method, path) => method === 'GET' && /^\/agents\/browser-use\/(\?|$)/.test(path),
    output: (stdout, data) => expect(JSON.parse(stdout).map((agent: { id: string }) => agent.id)).toContain(data.agentId),
  },
  {
    name: 'persistent list',
    kind: 'get',
    args: () => ['persistent', 'list', '--json'],
    match: (method, path) => method === 'GET' && /^\/agents\/(\?|$)/.test(path),
    output: (stdout, data) => expect(JSON.parse(stdout).map((agent: { id: string }) => agent.id)).toContain(data.persistentId),
  },
  {
    name: 'persistent get',
    kind: 'get',
    args: (data) => ['persistent', 'get', data.persistentId, '--json'],
    match: (method, path, data) => method === 'GET' && path === `/agents/${data.persistentId}/`,
    output: (stdout, data) => expect(JSON.parse(stdout).id).toBe(data.persistentId),
  },
];

const faults: Fault[] = [
  { name: '502 HTML', plan: { kind: '502 html' } },
  { name: '500', plan: { kind: '500' } },
  { name: 'reset', plan: { kind: 'reset' } },
  // Waits ride out answers 120 ms late; a one-shot's slow answers never come, so its 0.1 s --timeout
  // ends them whatever the machine's speed (a late answer of 120 ms against 0.05 s was a race).
  { name: 'slow', plan: { kind: 'slow', delayMs: 120 }, oneShotPlan: { kind: 'slow', delayMs: Infinity }, args: ['--timeout', '0.1'] },
  { name: '429', plan: { kind: '429', retryAfter: '2' } },
  { name: 'outage 1.5 s', plan: { kind: 'outage', downMs: 1_500 } },
  { name: 'outage 60 s', plan: { kind: 'outage', downMs: 60_000 } },
  { name: 'restart', plan: { kind: 'restart', downMs: 1_000 } },
];

/** The documented outcome: exit code and what stderr must say. */
function expected(kind: Kind, fault: string): { exit: number; says: RegExp[] } {
  // The waited task ends (5 s of fake time) during or after the fault: the wait rides it out.
  if (kind === 'wait') return { exit: 0, says: fault === 'slow' ? [] : [/service unreachable since \d\d:\d\d:\d\d, retrying/, /service reachable again after/] };
  if (fault === 'outage 60 s' && kind === 'all') return { exit: 8, says: [/the list is partial: it stopped at page 3 of 4, after 20 items/] };
  // A one-shot's outage is there before it starts, on this machine: nothing listens, so no retry
  // can help and it fails at once (a restart, once the service was reached, is ridden out).
  if (fault.startsWith('outage') && kind !== 'all') return { exit: 8, says: [/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED(?! \(after)/] };
  if (kind !== 'post') return { exit: 0, says: [] };
  // A create or cancel whose outcome is unknown says so, and how to check.
  const uncertain = /the request may still have been carried out; check before sending it again: `agentctl tasks (list|get [0-9a-f-]{36})`/;
  if (fault === '502 HTML') return { exit: 1, says: [/answered 502 \(bad gateway\): 502 Bad Gateway \(non-JSON response\)/, uncertain] };
  if (fault === '500') return { exit: 1, says: [/answered 500 \(internal server error\)/, uncertain] };
  if (fault === 'reset' || fault === 'restart') return { exit: 8, says: [/the connection broke during POST/, uncertain] };
  if (fault === 'slow') return { exit: 8, says: [/timed out/, uncertain] };
  return { exit: 0, says: [] };
}

let emulator: RunningEmulator;
let data: Data;
/** One clock for the emulator and every command: tasks end, backoff passes and outages heal in fake time. */
const clock = new FakeClock();
const table = new Map<string, Map<string, string>>();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 5000, clock });
  const base = emulator.baseUrl;
  const agent = await apiRequest<{ id: string }>(base, 'POST', '/agents/browser-use/', { name: 'matrix' });
  for (let i = 0; i < LISTED; i++) await apiRequest(base, 'POST', `/agents/browser-use/${agent.id}/tasks/`, { prompt: `[hang] listed ${i}` });
  const persistent = await apiRequest<{ id: string }>(base, 'POST', '/agents/', { name: 'matrix agent', charter: 'watch' });
  const task = await apiRequest<{ id: string }>(base, 'POST', '/tasks/browser-use/', { prompt: 'look me up' });
  data = { emulator: base, agentId: agent.id, persistentId: persistent.id, taskId: task.id };
});

afterAll(async () => {
  await emulator?.close();
  const out = process.env.FAULT_MATRIX_OUT;
  if (out && table.size > 0) writeFileSync(out, renderTable());
});

function renderTable(): string {
  const header = `| command | ${faults.map((fault) => fault.name).join(' | ')} |\n|---|${faults.map(() => '---').join('|')}|\n`;
  const rows = families.map((family) => `| \`${family.name}\` | ${faults.map((fault) => table.get(family.name)?.get(fault.name) ?? '').join(' | ')} |`);
  return `${header}${rows.join('\n')}\n`;
}

/** exit code, requests the command sent, fake time it spent waiting. */
function cell(result: CliResult, requests: number, waitedMs: number, family: Family): string {
  const note = family.kind === 'all' && result.exitCode !== 0 ? ' partial' : '';
  return `${result.exitCode}${note} · ${requests} req · ${(waitedMs / 1000).toFixed(1)} s`;
}

// Cells run one after another: an outage closes its proxy's port, which a proxy started beside it could take.
describe('fault matrix', () => {
  for (const family of families) {
    describe(family.name, () => {
      for (const fault of faults) {
        it(`${fault.name}`, async () => {
          const proxy = new FaultProxy(new URL(data.emulator), clock);
          await proxy.start();
          try {
            const cellData = { ...data, ...(await family.prepare?.(data)) };
            // A list's outage is page 3's alone, so the pages in flight beside it answer and where it stops is certain.
            const routeOnly = family.kind === 'all' && fault.plan.kind === 'outage';
            const oneShot = family.kind !== 'wait';
            const plan = (oneShot && fault.oneShotPlan) || fault.plan;
            await proxy.use({ ...plan, skip: family.skip, routeOnly, match: (method, path) => family.match(method, path, cellData) });
            const sleeps = clock.sleeps.length;
            const started = clock.now();
            const result = await against(proxy.baseUrl)([...family.args(cellData), ...(oneShot ? (fault.args ?? []) : [])], { clock });
            const want = expected(family.kind, fault.name);

            expect(result.exitCode, result.stderr).toBe(want.exit);
            for (const says of want.says) expect(result.stderr).toMatch(says);
            // No stack trace, never "this is a bug".
            expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|this is a bug/);
            // No duplicate create: exactly one reached the service when it succeeded, never two.
            const creates = proxy.carriedOut('POST', /^\/tasks\/browser-use\/$/);
            if (family.name.startsWith('tasks create')) expect(creates).toBe(result.exitCode === 0 ? 1 : Math.min(creates, 1));
            // No lost output: the whole answer on success; on a partial list, a closed JSON array of what was read.
            if (result.exitCode === 0) family.output(result.stdout, cellData);
            else if (family.kind === 'all') expect(JSON.parse(result.stdout)).toHaveLength(2 * PAGE);
            else expect(result.stdout).toBe('');
            // A 429 is waited out as long as Retry-After says, never hammered.
            if (fault.name === '429' && result.exitCode === 0) expect(clock.sleeps.slice(sleeps).filter((ms) => ms >= 2000).length).toBeGreaterThanOrEqual(2);

            if (!table.has(family.name)) table.set(family.name, new Map());
            table.get(family.name)?.set(fault.name, cell(result, proxy.seen.length, clock.now() - started, family));
          } finally {
            await proxy.close();
          }
        });
      }
    });
  }
});
