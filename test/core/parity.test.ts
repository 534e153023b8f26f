// The parity table: the same bad input through the three faces (the command line in-process, the
// MCP server through the SDK's Client, the library) is refused with the same problem, each face
// naming the field its own way (a flag, a tool argument, the library's field), and nothing is sent.
// The problem comes from one place: the core's body builders (src/core/*-body.ts, schedule-preview.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, InputError, type AgentctlClient } from '../../src/client/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { against } from '../helpers/cli.js';
import { connectMcp, data } from '../helpers/mcp.js';

const KEY = 'parity-key-0123456789';
const ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const BIG = 'x'.repeat(1.2 * 1024 * 1024);
const LONG_VALUE = 'v'.repeat(4097);
const deep = (levels: number) => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
};
/** Variables the MCP server may read secrets from, and the command line reads with --secret-env. */
const ENV = { PARITY_LONG: LONG_VALUE, PARITY_SHORT: 'short' };

type Lib = (client: AgentctlClient) => Promise<unknown> | unknown;

interface Row {
  what: string;
  /** The problem every face says, after its name for the field. */
  problem: RegExp;
  /** argv and how the command line names the field (undefined: said without a name). */
  cli: [string[], string | undefined];
  /** tool, arguments and the argument named; undefined where the tool has no such argument. */
  mcp?: [string, Record<string, unknown>, string];
  /** the call and the field named; undefined where the library has no such option. */
  lib?: [Lib, string];
}

const schedule129 = `@every ${'1s '.repeat(50)}`;
const ROWS: Row[] = [
  // Tasks
  {
    what: 'a blank prompt',
    problem: /is empty: say what the browser agent should do/,
    cli: [['tasks', 'create', ' '], 'the prompt'],
    mcp: ['tasks_create', { prompt: ' ' }, 'prompt'],
    lib: [(c) => c.tasks.create({ prompt: ' ' }), 'prompt'],
  },
  {
    what: 'a 1.2 MiB prompt',
    problem: /is 1258291 bytes long; the limit is 1 MiB/,
    cli: [['tasks', 'create', BIG], 'the prompt'],
    mcp: ['tasks_create', { prompt: BIG }, 'prompt'],
    lib: [(c) => c.tasks.create({ prompt: BIG }), 'prompt'],
  },
  {
    what: 'an output schema the meta-schema refuses',
    problem: /would be refused by the service: Invalid JSON Schema: /,
    cli: [['tasks', 'create', 'x', '--output-schema', '{"type":5}'], '--output-schema'],
    mcp: ['tasks_create', { prompt: 'x', output_schema: { type: 5 } }, 'output_schema'],
    lib: [(c) => c.tasks.create({ prompt: 'x', outputSchema: { type: 5 } }), 'outputSchema'],
  },
  {
    what: 'an output schema 46 levels deep',
    problem: /would be refused by the service: Schema too deep - maximum nesting level is 40/,
    cli: [['tasks', 'create', 'x', '--output-schema', JSON.stringify(deep(45))], '--output-schema'],
    mcp: ['tasks_create', { prompt: 'x', output_schema: deep(45) }, 'output_schema'],
    lib: [(c) => c.tasks.create({ prompt: 'x', outputSchema: deep(45) }), 'outputSchema'],
  },
  {
    what: 'an ftp webhook',
    problem: /must be an http:\/\/ or https:\/\/ URL, got ftp:/,
    cli: [['tasks', 'create', 'x', '--webhook', 'ftp://hooks.example'], '--webhook'],
    mcp: ['tasks_create', { prompt: 'x', webhook: 'ftp://hooks.example' }, 'webhook'],
    lib: [(c) => c.tasks.create({ prompt: 'x', webhook: 'ftp://hooks.example' }), 'webhook'],
  },
  {
    what: 'a webhook that is not a URL',
    problem: /"not a url" is not a URL/,
    cli: [['tasks', 'create', 'x', '--webhook', 'not a url'], '--webhook'],
    mcp: ['tasks_create', { prompt: 'x', webhook: 'not a url' }, 'webhook'],
    lib: [(c) => c.tasks.create({ prompt: 'x', webhook: 'not a url' }), 'webhook'],
  },
  {
    what: 'a secret value over 4 KB',
    problem: /the value of key 1 of 1 of domain 1 of 1 is 4097 bytes; the limit is 4 KB/,
    cli: [['tasks', 'create', 'x', '--secret-env', 'https://a.example', 'PIN=PARITY_LONG'], 'secrets:'],
    mcp: ['tasks_create', { prompt: 'x', secrets_env: [{ domain: 'https://a.example', key: 'PIN', env: 'PARITY_LONG' }] }, 'secrets_env'],
    lib: [(c) => c.tasks.create({ prompt: 'x', secrets: { 'https://a.example': { PIN: LONG_VALUE } } }), 'secrets'],
  },
  {
    what: 'a secret key with a dash',
    problem: /key 1 of 1 of domain 1 of 1 is not a secret key/,
    cli: [['tasks', 'create', 'x', '--secret-env', 'https://a.example', 'API-KEY=PARITY_SHORT'], 'secrets:'],
    mcp: ['tasks_create', { prompt: 'x', secrets_env: [{ domain: 'https://a.example', key: 'API-KEY', env: 'PARITY_SHORT' }] }, 'secrets_env'],
    lib: [(c) => c.tasks.create({ prompt: 'x', secrets: { 'https://a.example': { 'API-KEY': 'short' } } }), 'secrets'],
  },
  // Persistent agents
  {
    what: "a blank persistent agent's name",
    problem: /must not be empty/,
    cli: [['persistent', 'create', '--name', ' '], '--name'],
    mcp: ['persistent_create', { name: ' ' }, 'name'],
    lib: [(c) => c.persistent.create({ name: ' ' }), 'name'],
  },
  {
    what: "a persistent agent's name of 256 characters",
    problem: /is 256 characters long; the limit is 255/,
    cli: [['persistent', 'create', '--name', 'n'.repeat(256)], '--name'],
    mcp: ['persistent_create', { name: 'n'.repeat(256) }, 'name'],
    lib: [(c) => c.persistent.create({ name: 'n'.repeat(256) }), 'name'],
  },
  {
    what: 'a 1.2 MiB charter',
    problem: /is 1258291 bytes long; the limit is 1 MiB/,
    cli: [['persistent', 'create', '--name', 'scout', '--charter', BIG], '--charter'],
    mcp: ['persistent_create', { name: 'scout', charter: BIG }, 'charter'],
    lib: [(c) => c.persistent.create({ name: 'scout', charter: BIG }), 'charter'],
  },
  {
    what: 'a schedule with minute 61',
    problem: /"61 \* \* \* \*" is not a schedule: /,
    cli: [['persistent', 'create', '--name', 'scout', '--schedule', '61 * * * *'], '--schedule'],
    mcp: ['persistent_create', { name: 'scout', schedule: '61 * * * *' }, 'schedule'],
    lib: [(c) => c.persistent.create({ name: 'scout', schedule: '61 * * * *' }), 'schedule'],
  },
  {
    what: 'the schedule @midnight',
    problem: /"@midnight" is not a schedule: /,
    cli: [['persistent', 'update', ID, '--schedule', '@midnight'], '--schedule'],
    mcp: ['persistent_update', { id: ID, schedule: '@midnight' }, 'schedule'],
    lib: [(c) => c.persistent.update(ID, { schedule: '@midnight' }), 'schedule'],
  },
  {
    what: 'a schedule of 129 characters',
    problem: /Ensure this field has no more than 128 characters\./,
    cli: [['persistent', 'update', ID, '--schedule', schedule129], '--schedule'],
    mcp: ['persistent_update', { id: ID, schedule: schedule129 }, 'schedule'],
    lib: [(c) => c.persistent.update(ID, { schedule: schedule129 }), 'schedule'],
  },
  {
    what: 'the preferred contact "pigeon"',
    problem: /"pigeon" is not email, sms or an endpoint UUID/,
    cli: [['persistent', 'create', '--name', 'scout', '--preferred-contact', 'pigeon'], '--preferred-contact'],
    mcp: ['persistent_create', { name: 'scout', preferred_contact: 'pigeon' }, 'preferred_contact'],
    lib: [(c) => c.persistent.create({ name: 'scout', preferred_contact_endpoint: 'pigeon' }), 'preferred_contact_endpoint'],
  },
  {
    what: 'a personal MCP server id that is not a UUID',
    problem: /"nope" is not a UUID/,
    cli: [['persistent', 'create', '--name', 'scout', '--mcp-server', 'nope'], '--mcp-server'],
    lib: [(c) => c.persistent.create({ name: 'scout', enabled_personal_server_ids: ['nope'] }), 'enabled_personal_server_ids'],
  },
  {
    what: 'an update of no field',
    problem: /nothing to update: give at least one field/,
    cli: [['persistent', 'update', ID], undefined],
    mcp: ['persistent_update', { id: ID }, '(arguments)'],
    lib: [(c) => c.persistent.update(ID, {}), 'input'],
  },
  // Browser-use (legacy) agents
  {
    what: "an empty browser-use agent's name",
    problem: /must not be empty/,
    cli: [['agents', 'create', '--name', ''], '--name'],
    mcp: ['agents_create', { name: '' }, 'name'],
    lib: [(c) => c.agents.create({ name: '' }), 'name'],
  },
  {
    what: "a browser-use agent's name of 256 characters",
    problem: /is 256 characters long; the limit is 255/,
    cli: [['agents', 'create', '--name', 'n'.repeat(256)], '--name'],
    mcp: ['agents_create', { name: 'n'.repeat(256) }, 'name'],
    lib: [(c) => c.agents.create({ name: 'n'.repeat(256) }), 'name'],
  },
  {
    what: "a browser-use agent's new name of 256 characters",
    problem: /is 256 characters long; the limit is 255/,
    cli: [['agents', 'update', ID, '--name', 'n'.repeat(256)], '--name'],
    lib: [(c) => c.agents.update(ID, { name: 'n'.repeat(256) }), 'name'],
  },
  // Schedule previews
  {
    what: 'a preview of minute 61',
    problem: /"61 \* \* \* \*" is not a schedule: /,
    cli: [['schedule-preview', '61 * * * *'], 'the expression'],
    mcp: ['schedule_preview', { expression: '61 * * * *' }, 'expression'],
    lib: [(c) => c.schedule.preview('61 * * * *'), 'expression'],
  },
  {
    what: 'a preview of an empty expression',
    problem: /is empty \(an empty schedule turns an agent's schedule off\)/,
    cli: [['schedule-preview', ''], 'the expression'],
    mcp: ['schedule_preview', { expression: '' }, 'expression'],
    lib: [(c) => c.schedule.preview(''), 'expression'],
  },
  {
    what: 'a preview from "yesterday"',
    problem: /"yesterday" is not an ISO 8601 instant/,
    cli: [['schedule-preview', '@daily', '--from', 'yesterday'], '--from'],
    mcp: ['schedule_preview', { expression: '@daily', from: 'yesterday' }, 'from'],
    lib: [(c) => c.schedule.preview('@daily', { from: 'yesterday' as unknown as Date }), 'from'],
  },
  {
    what: 'a preview in the zone Mars/Olympus',
    problem: /"Mars\/Olympus" is not a time zone/,
    cli: [['schedule-preview', '@daily', '--tz', 'Mars/Olympus'], '--tz'],
    mcp: ['schedule_preview', { expression: '@daily', timezone: 'Mars/Olympus' }, 'timezone'],
  },
  {
    what: "a preview against an agent id that is not a UUID",
    problem: /"nope" is not a UUID/,
    cli: [['schedule-preview', '@daily', '--agent', 'nope'], '--agent'],
    lib: [(c) => c.schedule.preview('@daily', { agentId: 'nope' }), 'agentId'],
  },
  {
    what: 'a preview of 1001 fire times',
    problem: /must be between 1 and 1000, got 1001/,
    cli: [['schedule-preview', '@daily', '--count', '1001'], '--count'],
    lib: [(c) => c.schedule.preview('@daily', { count: 1001 }), 'count'],
  },
];

let service: RunningEmulator;
let mcp: Awaited<ReturnType<typeof connectMcp>>;
let client: AgentctlClient;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  service = await startEmulator({ port: 0, apiKey: KEY });
  cli = against(service.baseUrl, KEY);
  mcp = await connectMcp({ baseUrl: service.baseUrl, apiKey: KEY, env: ENV, listTools: false, options: { secrets: { envNames: Object.keys(ENV), envPrefixes: [] } } });
  client = createClient({ baseUrl: service.baseUrl, apiKey: KEY });
});
afterAll(async () => {
  await mcp?.close();
  await service?.close();
});

/** Runs `face`, then says how many requests the service saw meanwhile. */
async function sent(face: () => Promise<unknown>): Promise<{ outcome: unknown; requests: number }> {
  const before = service.requests.length;
  const outcome = await face().catch((error: unknown) => error);
  return { outcome, requests: service.requests.length - before };
}

describe('the parity table: one bad input, one problem, three faces, nothing sent', () => {
  it(`holds ${ROWS.length} rows across tasks, persistent agents, browser-use agents and schedules`, () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(20);
  });

  it.each(ROWS.map((row) => [row.what, row] as const))('%s', async (_what, row) => {
    const [argv, flag] = row.cli;
    const cliRun = await sent(() => cli(argv, { env: ENV }));
    const result = cliRun.outcome as { exitCode: number; stderr: string };
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toMatch(row.problem);
    const said = /error: (.*)/.exec(result.stderr)?.[1] ?? '';
    if (flag === undefined) expect(said).toMatch(new RegExp(`^${row.problem.source}`));
    else expect(said.startsWith(`${flag} `), said).toBe(true);
    expect(cliRun.requests, 'the command line sent a request').toBe(0);

    if (row.mcp) {
      const [tool, args, argument] = row.mcp;
      const mcpRun = await sent(() => mcp.call(tool, args));
      const answer = mcpRun.outcome as Awaited<ReturnType<typeof mcp.call>>;
      expect(answer.isError, JSON.stringify(answer).slice(0, 300)).toBe(true);
      expect(data(answer).error).toMatchObject({ name: 'usage', field: argument });
      expect(data(answer).error.message).toMatch(row.problem);
      expect(mcpRun.requests, 'the MCP server sent a request').toBe(0);
    }

    if (row.lib) {
      const [call, field] = row.lib;
      const libRun = await sent(async () => call(client));
      expect(libRun.outcome).toBeInstanceOf(InputError);
      const error = libRun.outcome as InputError;
      expect(error.field).toBe(field);
      expect(error.problem).toMatch(row.problem);
      expect(error.problem).not.toMatch(/--[a-z]|agentctl /);
      expect(libRun.requests, 'the library sent a request').toBe(0);
    }
  });
});
