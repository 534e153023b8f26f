// Issue 48: the secrets a model names through `agentctl mcp`, attacked. A secrets folder laid out as
// an attacker would (a hard link to a file outside it, a name swapped between a file and a link
// while calls are made, a FIFO), variable names that Windows reads as agentctl's own key, a variable
// allowed for one site sent to another, and a domain named `__proto__`. Each test drives the server
// through the SDK's Client against a stub service that records what was sent, and checks what
// reached it.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, linkSync, mkdirSync, openSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SecretPolicy } from '../../src/core/secrets.js';
import { against, agentctl, tempDir } from '../helpers/cli.js';
import { connectMcp, data, text } from '../helpers/mcp.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const KEY = 'mcp-secrets-key-789';
const TOKEN = 'mcp-bearer-token-0123456789';
const INSIDE = 'inside-secret-1111';
const OUTSIDE = 'outside-secret-9999';
const TASK = { id: '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', prompt: 'p', status: 'pending', created_at: '2026-05-01T08:00:00Z', updated_at: '2026-05-01T08:00:00Z' };
const secretsFor = (value: string) => JSON.stringify({ 'https://shop.example': { PIN: value } });

/** A service that answers every create, keeping what each one sent. */
let service: Awaited<ReturnType<typeof stubServer>>;
beforeAll(async () => {
  service = await stubServer((_request, response) => sendJson(response, 201, TASK));
});
afterAll(() => service.close());
beforeEach(() => {
  service.requests.length = 0;
});
/** The secrets of every create the service received. */
const sentSecrets = () => service.requests.map((request) => (JSON.parse(request.body) as { secrets?: Record<string, Record<string, string>> }).secrets);
const sent = () => service.requests.map((request) => request.body).join('\n');

const connect = (secrets: Partial<SecretPolicy>, env: Record<string, string> = {}) =>
  connectMcp({ baseUrl: service.baseUrl, apiKey: KEY, env, options: { secrets: { envNames: [], envPrefixes: [], ...secrets } } });

/** A secrets folder, and a file beside it (outside) holding another secret. */
function layout() {
  const dir = tempDir();
  const folder = join(dir, 'secrets');
  mkdirSync(folder);
  const outside = join(dir, 'outside.json');
  writeFileSync(outside, secretsFor(OUTSIDE));
  writeFileSync(join(folder, 'shop.json'), secretsFor(INSIDE));
  return { folder, outside };
}

describe('a secrets folder laid out by an attacker', () => {
  it('refuses a hard link to a file outside the folder, and sends nothing of it', async () => {
    const { folder, outside } = layout();
    linkSync(outside, join(folder, 'alias.json'));
    const { call, close } = await connect({ directory: folder });
    const refused = await call('tasks_create', { prompt: 'log in', secrets_file: 'alias.json' });
    expect(data(refused).error).toMatchObject({ name: 'usage', field: 'secrets_file' });
    expect(text(refused)).toContain('alias.json has 2 names (hard links)');
    expect(JSON.stringify(refused)).not.toContain(OUTSIDE);
    expect(service.requests).toHaveLength(0);
    await close();
  });

  /** race.json in the folder, and a swap of it between a regular file (inside secrets) and a link to the outside file, by rename: it always exists. */
  function swappable() {
    const { folder, outside } = layout();
    const target = join(folder, 'race.json');
    writeFileSync(target, secretsFor(INSIDE));
    let link = false;
    const swap = () => {
      if (link) writeFileSync(`${target}.file`, secretsFor(INSIDE));
      else symlinkSync(outside, `${target}.file`);
      renameSync(`${target}.file`, target);
      link = !link;
    };
    return { folder, target, outside, swap };
  }

  /** Every answer sent the inside file or was refused; the outside one never reached the service. */
  function expectNoLeak(answers: CallToolResult[]) {
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain(OUTSIDE);
      if (answer.isError) expect(data(answer).error).toMatchObject({ name: 'usage', field: 'secrets_file' });
    }
    expect(sent()).not.toContain(OUTSIDE);
    for (const secrets of sentSecrets()) expect(secrets).toEqual({ 'https://shop.example': { PIN: INSIDE } });
  }

  it('never sends the outside file while a name is swapped between a file and a link, at any file operation', async () => {
    const { folder, swap } = swappable();
    const { call, close } = await connect({ directory: folder });
    // The attacker is woken by the server's own file operations: before each, a seeded coin says
    // whether it swaps. Whatever the load of the machine and whatever operations the code makes, a
    // check and a use of the name are told apart by a swap about half of the time.
    const original = { ...fsPromises };
    let seed = 48;
    const coin = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0x10000) !== 0;
    for (const [name, value] of Object.entries(original)) {
      if (typeof value === 'function') Object.assign(fsPromises, { [name]: (...args: unknown[]) => (coin() && swap(), (value as (...a: unknown[]) => unknown)(...args)) });
    }
    syncBuiltinESMExports();
    const answers: CallToolResult[] = [];
    try {
      for (let n = 0; n < 40; n++) answers.push(await call('tasks_create', { prompt: 'log in', secrets_file: 'race.json' }));
    } finally {
      Object.assign(fsPromises, original);
      syncBuiltinESMExports();
      await close();
    }
    expectNoLeak(answers);
  });

  it('nor while another thread swaps it as fast as it can', async () => {
    const { folder, target, outside } = swappable();
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const swapper = new Worker(
      `const { workerData: w } = require('node:worker_threads'); const fs = require('node:fs');
       const flags = new Int32Array(w.flags.buffer);
       while (Atomics.load(flags, 0) === 0) {
         try {
           fs.symlinkSync(w.outside, w.target + '.link'); fs.renameSync(w.target + '.link', w.target);
           fs.writeFileSync(w.target + '.file', w.inside); fs.renameSync(w.target + '.file', w.target);
           Atomics.add(flags, 1, 1);
         } catch {}
       }`,
      { eval: true, workerData: { flags, target, outside, inside: secretsFor(INSIDE) } },
    );
    const { call, close } = await connect({ directory: folder });
    const answers: CallToolResult[] = [];
    try {
      for (let round = 0; round < 5; round++) {
        // Each round once the swapper has swapped again: a busy machine may not run it for a while.
        const swaps = Atomics.load(flags, 1);
        while (Atomics.load(flags, 1) === swaps) await new Promise((resolve) => setImmediate(resolve));
        answers.push(...(await Promise.all(Array.from({ length: 8 }, () => call('tasks_create', { prompt: 'log in', secrets_file: 'race.json' })))));
      }
    } finally {
      Atomics.store(flags, 0, 1);
      await new Promise((resolve) => swapper.once('exit', resolve));
      await close();
    }
    expectNoLeak(answers);
  });

  describe.skipIf(process.platform === 'win32')('a FIFO', () => {
    let fifo: string;
    afterEach(() => {
      // A reader blocked on the FIFO (the old code) is let go by a writer, so the worker's threads are free again.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // no reader waits
      }
    });

    it('is refused at once, and the files read after it are read', async () => {
      const { folder } = layout();
      fifo = join(folder, 'pipe.json');
      execFileSync('mkfifo', [fifo]);
      const { call, close } = await connect({ directory: folder });
      // More calls than the threads that read files (4): each one held a thread for ever.
      const refused = await Promise.all(Array.from({ length: 5 }, () => call('tasks_create', { prompt: 'log in', secrets_file: 'pipe.json' })));
      for (const answer of refused) {
        expect(data(answer).error).toMatchObject({ name: 'usage', field: 'secrets_file' });
        expect(text(answer)).toContain('pipe.json is a FIFO, not a regular file');
      }
      const read = await call('tasks_create', { prompt: 'log in', secrets_file: 'shop.json' });
      expect(read.isError).toBeFalsy();
      expect(sentSecrets()).toEqual([{ 'https://shop.example': { PIN: INSIDE } }]);
      await close();
    });
  });

  it('refuses a link, a subfolder and a folder, and still reads a file named by its path', async () => {
    const { folder, outside } = layout();
    symlinkSync(join(folder, 'shop.json'), join(folder, 'link.json'));
    mkdirSync(join(folder, 'sub'));
    writeFileSync(join(folder, 'sub', 'x.json'), secretsFor(INSIDE));
    symlinkSync(outside, join(folder, 'sub', 'out.json'));
    const { call, close } = await connect({ directory: folder });
    for (const [file, says] of [
      ['link.json', 'link.json is a symbolic link'],
      ['sub/x.json', 'sub/x.json is in a subfolder'],
      ['sub/out.json', 'sub/out.json is in a subfolder'],
      ['sub', 'sub is a folder, not a regular file'],
      ['sub/../../outside.json', 'is not in the folder allowed for secrets files'],
    ]) {
      const refused = await call('tasks_create', { prompt: 'log in', secrets_file: file });
      expect(data(refused).error, file).toMatchObject({ name: 'usage', field: 'secrets_file' });
      expect(text(refused), file).toContain(says);
    }
    expect((await call('tasks_create', { prompt: 'log in', secrets_file: join(folder, 'shop.json') })).isError).toBeFalsy();
    expect((await call('tasks_create', { prompt: 'log in', secrets_file: 'sub/../shop.json' })).isError).toBeFalsy();
    expect(sent()).not.toContain(OUTSIDE);
    expect(sentSecrets()).toHaveLength(2);
    await close();
  });
});

/** process.env as Windows has it: a name is looked up without case, and (as everywhere) ends at a NUL. */
function windowsEnv(values: Record<string, string>): Record<string, string> {
  return new Proxy(values, {
    get: (target, name) => {
      if (typeof name !== 'string') return undefined;
      const wanted = name.split('\0')[0]!.toUpperCase();
      return Object.entries(target).find(([key]) => key.toUpperCase() === wanted)?.[1];
    },
  });
}

describe('the environment variables a model names', () => {
  const env = windowsEnv({ AGENTCTL_API_KEY: KEY, AGENTCTL_MCP_TOKEN: TOKEN, SHOP_PASSWORD: INSIDE, SHOP_COPY: KEY, SHOP_TOKEN: TOKEN });
  const secret = (variable: string, domain = 'https://shop.example') => ({ prompt: 'log in', secrets_env: [{ domain, key: 'PASSWORD', env: variable }] });

  it("never hands out agentctl's key or token: not by another case, a NUL, or a copy in another variable", async () => {
    const { call, close } = await connect({ envPrefixes: ['SHOP_', 'AGENTCTL_'] }, env);
    for (const variable of ['AGENTCTL_API_KEy', 'AGENTCTL_api_key', 'AGENTCTL_MCP_TOKEn', 'AGENTCTL_API_KEY\0x']) {
      const refused = await call('tasks_create', secret(variable));
      expect(data(refused).error, variable).toMatchObject({ name: 'usage', field: 'secrets_env' });
      expect(JSON.stringify(refused)).not.toContain(KEY);
    }
    for (const variable of ['SHOP_COPY', 'SHOP_TOKEN']) {
      const refused = await call('tasks_create', secret(variable));
      expect(data(refused).error, variable).toMatchObject({ name: 'usage', field: 'secrets_env' });
      expect(text(refused), variable).toContain(`${variable} holds agentctl's own API key or MCP token`);
    }
    expect(service.requests).toHaveLength(0);
    expect((await call('tasks_create', secret('SHOP_PASSWORD'))).isError).toBeFalsy();
    expect(sentSecrets()).toEqual([{ 'https://shop.example': { PASSWORD: INSIDE } }]);
    await close();
  });

  it("never hands out agentctl's key from a secrets file either", async () => {
    const { folder } = layout();
    writeFileSync(join(folder, 'copy.json'), secretsFor(KEY));
    const { call, close } = await connect({ directory: folder });
    const refused = await call('tasks_create', { prompt: 'log in', secrets_file: 'copy.json' });
    expect(data(refused).error).toMatchObject({ name: 'usage', field: 'secrets_file' });
    expect(text(refused)).toContain("the file holds agentctl's own API key or MCP token");
    expect(service.requests).toHaveLength(0);
    await close();
  });

  it('sends a variable allowed for some sites to those sites only', async () => {
    const allowed = { envNames: ['SHOP_PASSWORD'], envSites: new Map([['SHOP_PASSWORD', ['https://shop.example', 'https://login.shop.example']]]) };
    const { client, call, close } = await connect(allowed, env);
    const elsewhere = await call('tasks_create', secret('SHOP_PASSWORD', 'https://evil.example'));
    expect(data(elsewhere).error).toMatchObject({ name: 'usage', field: 'secrets_env' });
    expect(text(elsewhere)).toContain('SHOP_PASSWORD may be sent only to https://shop.example, https://login.shop.example (not to https://evil.example)');
    expect(service.requests).toHaveLength(0);
    expect((await call('tasks_create', secret('SHOP_PASSWORD', 'https://Login.Shop.example'))).isError).toBeFalsy();
    expect(sentSecrets()).toEqual([{ 'https://Login.Shop.example': { PASSWORD: INSIDE } }]);
    const create = (await client.listTools()).tools.find((tool) => tool.name === 'tasks_create')!;
    expect(create.description).toContain('SHOP_PASSWORD (for https://shop.example, https://login.shop.example only)');
    await close();
  });
});

describe('--allow-secret-env', () => {
  const run = (args: string[]) => agentctl(['mcp', ...args], { env: { AGENTCTL_BASE_URL: service.baseUrl, AGENTCTL_API_KEY: KEY }, input: '' });

  it("refuses agentctl's own names in any case, and sites that are not named", async () => {
    for (const [entry, says] of [
      ['AGENTCTL_API_KEy', "agentctl's own credentials are never task secrets"],
      ['agentctl_mcp_token', "agentctl's own credentials are never task secrets"],
      ['SHOP_PASSWORD@', 'name the sites after @'],
      ['SHOP_PASSWORD@https://a.example,,https://b.example', 'name the sites after @'],
    ] as const) {
      const result = await run(['--allow-secret-env', entry]);
      expect(result.exitCode, entry).toBe(2);
      expect(result.stderr, entry).toContain(says);
    }
  });

  it('takes NAME@site,site and PREFIX*@site beside the plain forms', async () => {
    const result = await run(['--allow-secret-env', 'SHOP_PASSWORD@https://shop.example,https://login.shop.example', '--allow-secret-env', 'SHOP_*@https://shop.example', '--allow-secret-env', 'OTHER']);
    expect(result.exitCode, result.stderr).toBe(0);
  });
});

describe('a domain named __proto__', () => {
  it('is sent as it was named, from a variable and from a file', async () => {
    const { folder } = layout();
    writeFileSync(join(folder, 'proto.json'), '{"__proto__": {"PIN": "from-file-1234"}, "https://shop.example": {"__proto__": "key-named-proto"}}');
    const { call, close } = await connect({ envNames: ['SHOP_PASSWORD'], directory: folder }, { SHOP_PASSWORD: INSIDE });
    const created = await call('tasks_create', { prompt: 'log in', secrets_env: [{ domain: '__proto__', key: 'PASSWORD', env: 'SHOP_PASSWORD' }], secrets_file: 'proto.json' });
    expect(created.isError, text(created)).toBeFalsy();
    const [secrets] = sentSecrets();
    expect(Object.keys(secrets!)).toEqual(['__proto__', 'https://shop.example']);
    expect(Object.entries(secrets!)).toEqual([
      ['__proto__', { PIN: 'from-file-1234', PASSWORD: INSIDE }],
      ['https://shop.example', JSON.parse('{"__proto__": "key-named-proto"}')],
    ]);
    await close();
  });

  it('is sent by tasks create --secret and --secrets-file too', async () => {
    const file = join(tempDir(), 'proto.json');
    writeFileSync(file, '{"__proto__": {"PIN": "from-file-1234"}}');
    const result = await against(service.baseUrl)(['tasks', 'create', 'p', '--secrets-file', file, '--secret', '__proto__', 'PASSWORD=typed-5678', '--verbose']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(Object.entries(sentSecrets()[0]!)).toEqual([['__proto__', { PIN: 'from-file-1234', PASSWORD: 'typed-5678' }]]);
    // The trace shows the domain too, its values hidden.
    expect(result.stderr).toContain('"secrets":{"__proto__":{"PIN":"***","PASSWORD":"***"}}');
  });
});
