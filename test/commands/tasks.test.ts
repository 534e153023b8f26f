import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { against, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const FAST = ['--interval', '0.05'];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 300 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const taskCount = async () => (await apiRequest<{ count: number }>(emulator.baseUrl, 'GET', '/tasks/browser-use/')).count;

async function createTask(prompt: string, extra: string[] = []): Promise<{ id: string; status: string }> {
  const result = await cli(['tasks', 'create', prompt, '--json', ...extra]);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe('tasks create', () => {
  it('prints only JSON on stdout, so `--json | jq -r .id` works', async () => {
    const result = await cli(['tasks', 'create', 'x', '--json']);
    expect(result.exitCode).toBe(0);
    const task = JSON.parse(result.stdout);
    expect(task).toMatchObject({ status: 'pending', prompt: 'x' });
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('prints just the id with --id-only', async () => {
    const result = await cli(['tasks', 'create', 'only the id', '--id-only']);
    expect(result.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  });

  it('reads the prompt from a file or stdin', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'prompt.txt'), 'prompt from a file\n');
    const fromFile = JSON.parse((await cli(['tasks', 'create', '--prompt-file', join(dir, 'prompt.txt'), '--json'])).stdout);
    expect(fromFile.prompt).toBe('prompt from a file');
    const fromStdin = JSON.parse((await cli(['tasks', 'create', '-', '--json'], { input: 'prompt from stdin\n' })).stdout);
    expect(fromStdin.prompt).toBe('prompt from stdin');
  });

  it('follows a task to completion, prints its result and exits 0', async () => {
    const result = await cli(['tasks', 'create', 'Find the weather in Oslo', '--follow', ...FAST]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().length).toBeGreaterThan(0);
  });

  it('follows with --json and prints the result endpoint body', async () => {
    const result = await cli(['tasks', 'create', 'Weather in Rome', '--follow', '--json', ...FAST]);
    expect(result.exitCode).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.status).toBe('completed');
    expect(body).toHaveProperty('result');
  });

  it('returns a structured result matching an output schema (file and inline)', async () => {
    const schema = { type: 'object', properties: { price: { type: 'number' }, city: { type: 'string' } }, required: ['price', 'city'] };
    const dir = tempDir();
    writeFileSync(join(dir, 'schema.json'), JSON.stringify(schema));
    const fromFile = await cli(['tasks', 'create', 'Cheapest hotel', '--output-schema', join(dir, 'schema.json'), '--follow', '--json', ...FAST]);
    expect(fromFile.exitCode).toBe(0);
    const result = JSON.parse(fromFile.stdout).result;
    expect(typeof result.price).toBe('number');
    expect(typeof result.city).toBe('string');
    const inline = await cli(['tasks', 'create', 'Cheapest hotel', '--output-schema', JSON.stringify(schema), '--follow', ...FAST]);
    expect(inline.exitCode).toBe(0);
    expect(JSON.parse(inline.stdout)).toHaveProperty('price');
  });

  it('exits 5 when the followed task fails, with the error on stderr', async () => {
    const result = await cli(['tasks', 'create', '[fail] please', '--follow', ...FAST]);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('failed');
  });

  it('waits on the service side with --wait and exits by the outcome', async () => {
    const done = await cli(['tasks', 'create', 'sync', '--wait', '5', '--json']);
    expect(done.exitCode).toBe(0);
    expect(JSON.parse(done.stdout).status).toBe('completed');
    const failed = await cli(['tasks', 'create', '[fail] sync', '--wait', '5', '--json']);
    expect(failed.exitCode).toBe(5);
    // The record is on stdout; stderr's JSON error still says what exit 5 means.
    expect(JSON.parse(failed.stderr)).toEqual({ error: { code: 'task_failed', exit: 5, message: 'the task ended failed', hint: null } });
    const ranOut = await cli(['tasks', 'create', '[hang] sync', '--wait', '1', '--json']);
    expect(ranOut.exitCode).toBe(7);
    const task = JSON.parse(ranOut.stdout);
    expect(task.wait_error).toBe('The operation timed out.');
    expect(ranOut.stderr).toContain(`agentctl tasks wait ${task.id}`);
  });

  it('sends secrets in the nested shape from flags, files and the environment, and never prints them', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ 'https://shop.example': { USER: 'alice' } }));
    const result = await cli(
      [
        'tasks', 'create', 'Log in as x_user', '--verbose', '--json',
        '--secrets-file', join(dir, 'secrets.json'),
        '--secret', 'https://shop.example', 'PASSWORD=hunter2-secret',
        '--secret-env', 'https://bank.example', 'PIN=BANK_PIN',
      ],
      { env: { BANK_PIN: '987654321' } },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('"secrets":{"https://shop.example":{"USER":"***","PASSWORD":"***"},"https://bank.example":{"PIN":"***"}}');
    for (const secret of ['hunter2-secret', '987654321', 'alice', 'emulator-key']) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
  });

  it.each([
    [['--wait', '1351'], '--wait must be between 0 and 1350'],
    [['--webhook', 'ftp://x'], 'http:// or https://'],
    [['--output-schema', '[1,2]'], 'must be a JSON object'],
    [['--output-schema', '{nope'], 'not valid JSON'],
    [['--output-schema', '/no/such/file.json'], 'no such file'],
    [['--secret', 'https://a.example', 'bad-key=1'], 'key 1 of 1 of domain 1 of 1 is not a secret key'],
    [['--secret-env', 'https://a.example', 'K=UNSET_VARIABLE_X'], 'UNSET_VARIABLE_X is not set'],
    [['--agent', 'nope'], '--agent "nope" is not a UUID'],
    [['--follow', '--wait', '5'], 'not both'],
    [['--listen-port', '8080'], 'go with --webhook-listen'],
    [['--webhook-listen', '--follow'], 'not both'],
    [['--webhook-listen', '--webhook', 'https://hooks.example/x'], 'not both'],
    [['--webhook-listen', '--listen-port', '70000'], '--listen-port must be between 0 and 65535'],
    [['--webhook-listen', '--public-url', 'ftp://x'], '--public-url must be an http'],
    [['--follow', '--interval', 'soon'], '--interval'],
  ])('refuses %j before any request (exit 2)', async (flags, message) => {
    const result = await cli(['tasks', 'create', 'x', ...flags]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  describe('secrets are checked against the spec\'s shape and limits before any request (exit 2)', () => {
    const domains = (n: number, perDomain: number, value: (d: number, k: number) => string) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, d) => [`https://site${d}.example`, Object.fromEntries(Array.from({ length: perDomain }, (_, k) => [`K${k}`, value(d, k)]))]),
      );
    it.each([
      ['not an object', ['https://a.example'], '--secrets-file must be an object like {"https://example.com": {"PASSWORD": "..."}}'],
      ['a flat object', { PASSWORD: 'x' }, '--secrets-file: the value of domain 1 of 1 must be an object of KEY: value pairs'],
      ['a value that is not a string', { 'https://a.example': { PIN: 1234 } }, '--secrets-file: the value of key 1 of 1 of domain 1 of 1 must be a string'],
      ['a key with a dash', { 'https://a.example': { 'API-KEY': 'x' } }, '--secrets-file: key 1 of 1 of domain 1 of 1 is not a secret key'],
      ['a key longer than 64', { 'https://a.example': { ['K'.repeat(65)]: 'x' } }, '--secrets-file: key 1 of 1 of domain 1 of 1 is not a secret key'],
      ['more than 20 domains', domains(21, 1, () => 'x'), '--secrets-file: 21 domains; the limit is 20'],
      ['more than 50 secrets', domains(3, 17, () => 'x'), '--secrets-file: 51 secrets; the limit is 50'],
      ['a value over 4 KB', { 'https://a.example': { BIG: 'x'.repeat(4097) } }, '--secrets-file: the value of key 1 of 1 of domain 1 of 1 is 4097 bytes; the limit is 4 KB'],
      ['more than 100 KB in all', domains(2, 13, () => 'x'.repeat(4000)), '--secrets-file: 104000 bytes in all; the limit is 100 KB'],
    ])('%s', async (_case, secrets, message) => {
      const file = join(tempDir(), 'secrets.json');
      writeFileSync(file, JSON.stringify(secrets));
      const before = await taskCount();
      const result = await cli(['tasks', 'create', 'x', '--secrets-file', file]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`error: ${message}`);
      expect(result.stdout).toBe('');
      expect(await taskCount()).toBe(before);
    });

    it('a file that is not JSON is refused by line and column, never quoting it (it holds secrets)', async () => {
      const file = join(tempDir(), 'secrets.json');
      writeFileSync(file, `{\n  "https://shop.example": {"PASSWORD": 'hunter2-top-secret'}\n}`);
      const result = await cli(['tasks', 'create', 'x', '--secrets-file', file]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`is not valid JSON: unexpected character (line 2, column 40)`);
      expect(result.stderr).not.toContain('hunter2');
    });

    it('also when the limit is reached through --secret flags', async () => {
      const flags = Array.from({ length: 51 }, (_, i) => ['--secret', 'https://a.example', `K${i}=v`]).flat();
      const result = await cli(['tasks', 'create', 'x', ...flags]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('error: secrets: 51 secrets; the limit is 50');
    });
  });

  it('refuses an output schema nested deeper than the service allows (exit 2)', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 45; i++) schema = { type: 'object', properties: { a: schema } };
    const result = await cli(['tasks', 'create', 'x', '--output-schema', JSON.stringify(schema)]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('error: --output-schema would be refused by the service: Schema too deep - maximum nesting level is 40');
  });

  // api/serializers.py BrowserUseAgentTaskSerializer.validate_output_schema, checked before any request.
  it('refuses an output schema the draft 2020-12 meta-schema refuses, and takes one 40 levels deep (exit 2, then 0)', async () => {
    for (const schema of ['{"properties":5}', '{"required":"x"}', '{"type":"strin"}', '{"pattern":"\\\\p{L}"}']) {
      const result = await cli(['tasks', 'create', 'x', '--output-schema', schema]);
      expect(result.exitCode, schema).toBe(2);
      expect(result.stderr, schema).toContain('error: --output-schema would be refused by the service: Invalid JSON Schema: ');
    }
    let list: unknown = 1;
    for (let i = 0; i < 39; i++) list = [list];
    const result = await cli(['tasks', 'create', 'x', '--output-schema', JSON.stringify({ type: 'string', default: list })]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it('requires a prompt', async () => {
    const result = await cli(['tasks', 'create']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('the prompt is required');
  });
});

describe('tasks wait, cancel, result', () => {
  it('waits for a running task and exits 0', async () => {
    const task = await createTask('wait for me');
    const result = await cli(['tasks', 'wait', task.id, ...FAST]);
    expect(result.exitCode).toBe(0);
  });

  it('exits 7 with the id when the wait runs out', async () => {
    const task = await createTask('[hang] forever');
    const result = await cli(['tasks', 'wait', task.id, '--timeout', '0.3', ...FAST]);
    expect(result.exitCode).toBe(7);
    expect(result.stdout.trim()).toBe(task.id);
    expect(result.stderr).toContain(`agentctl tasks wait ${task.id}`);
  });

  it('with --json, a wait that runs out writes exactly one JSON object on stderr (no human lines), the record on stdout', async () => {
    const task = await createTask('[hang] forever, in JSON');
    const result = await cli(['tasks', 'wait', task.id, '--timeout', '0.3', '--json', ...FAST]);
    expect(result.exitCode).toBe(7);
    expect(JSON.parse(result.stdout).id).toBe(task.id);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const { error } = JSON.parse(lines[0] as string);
    expect(error).toMatchObject({ code: 'wait_timed_out', exit: 7 });
    expect(error.message).toMatch(new RegExp(`^task ${task.id} is still (pending|in_progress) after [\\d.]+ m?s \\(--timeout\\)$`));
    expect(error.hint).toBe(`resume with: agentctl tasks wait ${task.id}`);
    // So does create --wait (the service waited) under --json.
    const ranOut = await cli(['tasks', 'create', '[hang] sync json', '--wait', '1', '--json']);
    expect(ranOut.exitCode).toBe(7);
    expect(JSON.parse(ranOut.stderr).error.hint).toBe(`resume with: agentctl tasks wait ${JSON.parse(ranOut.stdout).id}`);
  });

  it('cancels a running task; waiting then exits 6; cancelling again says so and exits 0', async () => {
    const task = await createTask('[hang] cancel me');
    const cancelled = await cli(['tasks', 'cancel', task.id, '--json']);
    expect(cancelled.exitCode).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ status: 'cancelled' });
    const waited = await cli(['tasks', 'wait', task.id, ...FAST]);
    expect(waited.exitCode).toBe(6);
    const again = await cli(['tasks', 'cancel', task.id, '--json']);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'cancelled', message: 'Task was already cancelled.' });
  });

  it('prints the result endpoint answer for each status', async () => {
    const pending = await createTask('[hang] not yet');
    const notYet = await cli(['tasks', 'result', pending.id, '--json']);
    expect(JSON.parse(notYet.stdout)).toMatchObject({ status: expect.stringMatching(/pending|in_progress/), message: 'Task is not yet completed.' });
    const task = await createTask('a result please');
    await eventually(async () => (await apiRequest<{ status: string }>(emulator.baseUrl, 'GET', `/tasks/browser-use/${task.id}/`)).status === 'completed' || undefined);
    const done = await cli(['tasks', 'result', task.id]);
    expect(done.exitCode).toBe(0);
    expect(done.stdout.trim().length).toBeGreaterThan(0);
  });
});

describe('tasks get, update, replace, delete, list', () => {
  it('updates a pending task, refuses a prompt change once it has started', async () => {
    const task = await createTask('[hang] editable');
    const patched = await cli(['tasks', 'update', task.id, '--webhook', 'https://hooks.example/done', '--credits-cost', '1.25', '--json']);
    expect(patched.exitCode, patched.stderr).toBe(0);
    expect(JSON.parse(patched.stdout).webhook).toBe('https://hooks.example/done');
    await eventually(async () => (await apiRequest<{ status: string }>(emulator.baseUrl, 'GET', `/tasks/browser-use/${task.id}/`)).status === 'in_progress' || undefined);
    const late = await cli(['tasks', 'update', task.id, '--prompt', 'changed']);
    expect(late.exitCode).toBe(1);
    expect(late.stderr).toContain('400');
    const cleared = await cli(['tasks', 'update', task.id, '--no-webhook', '--json']);
    expect(JSON.parse(cleared.stdout).webhook).toBeNull();
  });

  it('replaces a task with PUT', async () => {
    // The service takes a prompt only while the task is pending: [pending] keeps it there.
    const task = await createTask('[pending] replace me');
    const replaced = await cli(['tasks', 'replace', task.id, '[pending] replaced', '--webhook', 'https://hooks.example/put', '--json']);
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ prompt: '[pending] replaced', webhook: 'https://hooks.example/put' });
  });

  it('refuses a bad credits cost', async () => {
    const result = await cli(['tasks', 'update', '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', '--credits-cost', '1.2345']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('not a decimal');
  });

  it('gets and deletes a task; a deleted task is not found (exit 4)', async () => {
    const task = await createTask('delete me');
    const got = await cli(['tasks', 'get', task.id]);
    expect(got.stdout).toContain(`id\t${task.id}`);
    expect((await cli(['tasks', 'delete', task.id, '--yes'])).exitCode).toBe(0);
    expect((await cli(['tasks', 'get', task.id])).exitCode).toBe(4);
    // Waiting for it is no wait to resume: the message says there is no such task.
    const wait = await cli(['tasks', 'wait', task.id]);
    expect(wait.exitCode).toBe(4);
    expect(wait.stderr).toContain(`no task ${task.id}`);
    expect(wait.stderr).not.toContain('may still be running');
  });

  it('filters by status on the client, across all pages', async () => {
    for (let i = 0; i < 3; i++) await createTask(`[hang] listed ${i}`);
    const result = await cli(['tasks', 'list', '--all', '--status', 'in_progress', '--jsonl', '--page-size', '2']);
    const statuses = result.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line).status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['in_progress']));
    expect((await cli(['tasks', 'list', '--status', 'bogus'])).exitCode).toBe(2);
  });

  it('uses the agent-scoped routes with --agent', async () => {
    const agent = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/browser-use/', { name: 'scoped-agent' });
    const created = await cli(['tasks', 'create', 'scoped task', '--agent', agent.id, '--follow', '--json', ...FAST]);
    expect(created.exitCode, created.stderr).toBe(0);
    const listed = JSON.parse((await cli(['tasks', 'list', '--agent', agent.id, '--json'])).stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0].agent_id).toBe(agent.id);
    const id = listed[0].id;
    expect((await cli(['tasks', 'get', id, '--agent', agent.id])).exitCode).toBe(0);
    expect((await cli(['tasks', 'result', id, '--agent', agent.id, '--json'])).exitCode).toBe(0);
    const other = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/browser-use/', { name: 'other-agent' });
    expect((await cli(['tasks', 'get', id, '--agent', other.id])).exitCode).toBe(4);
    const hanging = JSON.parse((await cli(['tasks', 'create', '[pending] scoped', '--agent', agent.id, '--json'])).stdout);
    expect((await cli(['tasks', 'update', hanging.id, '--agent', agent.id, '--credits-cost', '2', '--json'])).exitCode).toBe(0);
    expect((await cli(['tasks', 'replace', hanging.id, '[pending] scoped', '--agent', agent.id, '--json'])).exitCode).toBe(0);
    expect((await cli(['tasks', 'cancel', hanging.id, '--agent', agent.id])).exitCode).toBe(0);
    expect((await cli(['tasks', 'wait', hanging.id, '--agent', agent.id, ...FAST])).exitCode).toBe(6);
    expect((await cli(['tasks', 'delete', hanging.id, '--agent', agent.id, '--yes'])).exitCode).toBe(0);
  });
});
