// --record FILE, AGENTCTL_RECORD and the library's record option: cassette lines, and no secret in them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedForms } from '../../src/api/redact.js';
import { createClient } from '../../src/client/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { agentctl, tempDir } from '../helpers/cli.js';

const KEY = 'record-test-key-5f3a9c';
const SECRET = 'hunter2-pass-"é/ü';
const TOKEN = 'tok-7d1e44ab90';
const WEBHOOK = `https://hooks.example.com/done/?t=${TOKEN}&x=1`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY, taskDurationMs: 60_000 });
});
afterAll(() => emulator.close());

const run = (args: string[], env: Record<string, string> = {}) => agentctl(args, { env: { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY, ...env } });

function lines(file: string): Array<Record<string, unknown>> {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every byte of the cassette, searched for each secret in every form a JSON or URL encoder gives it. */
function expectNoSecret(file: string, secrets: string[]): void {
  const bytes = readFileSync(file);
  for (const secret of secrets) for (const form of encodedForms(secret)) expect(bytes.includes(Buffer.from(form)), `${JSON.stringify(form)} in the cassette`).toBe(false);
}

describe('--record FILE', () => {
  it('writes one line per request and answer, with none of the key, task secrets or webhook tokens', async () => {
    const file = join(tempDir(), 'run.cassette.jsonl');
    const created = await run(['tasks', 'create', 'find the price', '--secret', 'https://shop.example', `password=${SECRET}`, '--webhook', WEBHOOK, '--record', file, '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect((await run(['--record', file, 'tasks', 'get', id])).exitCode).toBe(0);
    expect((await run(['tasks', 'list', '--record', file])).exitCode).toBe(0);
    expect((await run(['api', `/webhooks/inbound/agents/${id}/?t=${TOKEN}`, '--record', file])).exitCode).not.toBe(0); // GET is not allowed there: a failed answer is recorded too

    const cassette = lines(file);
    expect(cassette.map((line) => `${line.method} ${line.path} ${line.status}`)).toEqual([
      'POST /tasks/browser-use/ 201',
      `GET /tasks/browser-use/${id}/ 200`,
      'GET /tasks/browser-use/ 200',
      `GET /webhooks/inbound/agents/${id}/ 405`,
    ]);
    const [create, , list, hook] = cassette;
    expect(create).toMatchObject({ agentctl: 1, base: emulator.baseUrl, requestHeaders: { 'content-type': 'application/json' }, requestBody: { prompt: 'find the price', secrets: { 'https://shop.example': { password: '***' } } } });
    expect(create?.body).toMatchObject({ id, prompt: 'find the price' });
    expect(typeof create?.at === 'string' && !Number.isNaN(Date.parse(create.at))).toBe(true);
    expect(typeof create?.ms).toBe('number');
    expect(list).toMatchObject({ query: { page: '1' } });
    expect(hook).toMatchObject({ query: { t: '***' } });
    expect(JSON.stringify(cassette)).not.toMatch(/x-api-key|user-agent/i);
    expectNoSecret(file, [KEY, SECRET, TOKEN]);
  });

  it('AGENTCTL_RECORD records every command of a script into one cassette; --record wins', async () => {
    const file = join(tempDir(), 'env.jsonl');
    const other = join(tempDir(), 'flag.jsonl');
    expect((await run(['agents', 'list'], { AGENTCTL_RECORD: file })).exitCode).toBe(0);
    expect((await run(['persistent', 'list'], { AGENTCTL_RECORD: file })).exitCode).toBe(0);
    expect((await run(['agents', 'list', '--record', other], { AGENTCTL_RECORD: file })).exitCode).toBe(0);
    expect(lines(file).map((line) => line.path)).toEqual(['/agents/browser-use/', '/agents/']);
    expect(lines(other)).toHaveLength(1);
    expectNoSecret(file, [KEY]);
  });

  it('a cassette that cannot be written stops the command before any request (exit 2)', async () => {
    const before = emulator.requests.length;
    const result = await run(['agents', 'list', '--record', join(tempDir(), 'no-such-folder', 'x.jsonl')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cannot write the cassette .*ENOENT/);
    expect(emulator.requests.length).toBe(before);
  });

  it('the library takes the same option: record', async () => {
    const file = join(tempDir(), 'library.jsonl');
    const client = createClient({ baseUrl: emulator.baseUrl, apiKey: KEY, record: file });
    const task = await client.tasks.create({ prompt: 'from the library', secrets: { 'https://bank.example': { pin: SECRET } }, webhook: WEBHOOK });
    await client.tasks.get(task.id);
    client.close();
    expect(lines(file).map((line) => `${line.method} ${line.status}`)).toEqual(['POST 201', 'GET 200']);
    expectNoSecret(file, [KEY, SECRET, TOKEN]);
    expect(() => createClient({ baseUrl: emulator.baseUrl, apiKey: KEY, record: '' })).toThrow(/record/);
  });
});
