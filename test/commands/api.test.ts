// `agentctl api` with the flags gh users reach for (gh api): -f/-F fields, -X, -H, --include, --input.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { against, tempDir } from '../helpers/cli.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

let stub: Awaited<ReturnType<typeof stubServer>>;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  stub = await stubServer((request, response) => sendJson(response, 200, { ok: true }, { 'x-request-id': 'abc\u009b2J' }));
  cli = against(stub.baseUrl);
});
afterAll(() => stub.close());
const last = () => stub.requests.at(-1)!;

describe('agentctl api, as gh api', () => {
  it('-f and -F build a JSON body (POST by default, as gh does); -F types numbers, booleans, null and @file', async () => {
    const file = join(tempDir(), 'charter.md');
    writeFileSync(file, 'Watch fares.\n');
    const result = await cli(['api', '/agents/', '-f', 'name=fare watcher', '-F', 'is_active=true', '-F', 'limit=3', '-F', 'schedule=null', '-F', `charter=@${file}`, '-f', 'n=3']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(last().method).toBe('POST');
    expect(JSON.parse(last().body)).toEqual({ name: 'fare watcher', is_active: true, limit: 3, schedule: null, charter: 'Watch fares.\n', n: '3' });
  });

  it('with GET (-X GET or the METHOD argument), the fields become the query string', async () => {
    expect((await cli(['api', '-X', 'GET', '/tasks/browser-use/', '-f', 'page=2', '-F', 'page_size=10'])).exitCode).toBe(0);
    expect(last()).toMatchObject({ method: 'GET', url: '/api/v1/tasks/browser-use/?page=2&page_size=10' });
    expect((await cli(['api', 'GET', '/tasks/browser-use/', '-f', 'page=3'])).exitCode).toBe(0);
    expect(last().url).toBe('/api/v1/tasks/browser-use/?page=3');
  });

  it('-H adds a header; the API key cannot be replaced that way', async () => {
    expect((await cli(['api', '/ping/', '-H', 'X-Trace: 42'])).exitCode).toBe(0);
    expect(last().headers['x-trace']).toBe('42');
    const refused = await cli(['api', '/ping/', '-H', 'X-Api-Key: other']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--api-key/);
    expect((await cli(['api', '/ping/', '-H', 'no colon'])).exitCode).toBe(2);
  });

  it('--include prints the status line and headers (control characters escaped) before the body', async () => {
    const result = await cli(['api', '/ping/', '--include']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^HTTP 200\n/);
    expect(result.stdout).toContain('x-request-id: abc\\x9b2J\n');
    expect(JSON.parse(result.stdout.split("\n\n")[1] ?? "")).toEqual({ ok: true });
  });

  it('--input FILE sends the file as the body; -X PATCH picks the method', async () => {
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, '{"name":"renamed"}');
    expect((await cli(['api', '-X', 'PATCH', '/agents/browser-use/x/', '--input', file])).exitCode).toBe(0);
    expect(last()).toMatchObject({ method: 'PATCH', body: '{"name":"renamed"}' });
  });

  it('refuses contradictions before any request', async () => {
    const before = stub.requests.length;
    expect((await cli(['api', 'POST', '/ping/', '-X', 'GET'])).exitCode).toBe(2);
    expect((await cli(['api', '/ping/', '-f', 'a=1', '--data', '{}'])).exitCode).toBe(2);
    expect((await cli(['api', '/ping/', '-f', 'novalue'])).exitCode).toBe(2);
    expect(stub.requests.length).toBe(before);
  });
});
