// Stored preferences (`config set output json`, `config set timeout SEC`), honoured by every command.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { agentctl, against, tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { stubServer } from '../helpers/stub-server.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

describe('config set output json', () => {
  it('makes commands print JSON as with --json, on a terminal too; --jsonl still wins', async () => {
    const configHome = tempDir();
    const terminal = { stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true, columns: 80 };
    expect((await cli(['config', 'set', 'output', 'json'], { configHome })).exitCode).toBe(0);
    const listed = await cli(['tasks', 'list'], { configHome, terminal });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);
    expect(JSON.parse((await cli(['config', 'get', 'output'], { configHome })).stdout)).toMatchObject({ key: 'output', value: 'json' });
    await cli(['tasks', 'create', 'one'], { configHome });
    const lines = await cli(['tasks', 'list', '--jsonl'], { configHome });
    expect(lines.stdout.trim().split('\n').every((line) => line.startsWith('{'))).toBe(true);
    expect((await cli(['config', 'unset', 'output'], { configHome })).exitCode).toBe(0);
    expect((await cli(['tasks', 'list'], { configHome, terminal })).stdout).not.toMatch(/^\[/);
  });

  it('refuses a value it does not know, before storing anything', async () => {
    const configHome = tempDir();
    const result = await cli(['config', 'set', 'output', 'yaml'], { configHome });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/output: "yaml" is not one of json, table, auto/);
    expect((await cli(['config', 'set', 'timeout', 'soon'], { configHome })).exitCode).toBe(2);
  });
});

describe('config set timeout SEC', () => {
  it('is the per-request timeout when --timeout is not given', async () => {
    const stub = await stubServer(() => undefined); // never answers
    try {
      const configHome = tempDir();
      expect((await cli(['config', 'set', 'timeout', '0.2'], { configHome })).exitCode).toBe(0);
      // The backoff between tries passes on a fake clock; each try's 0.2 s is real.
      const result = await against(stub.baseUrl)(['tasks', 'list'], { configHome, clock: new FakeClock() });
      expect(result.exitCode).toBe(8);
      expect(result.stderr).toContain('timed out'); // in 5 tries of 0.2 s, not of the default 30 s
    } finally {
      await stub.close();
    }
  });
});

describe('persistent get --web', () => {
  it("prints the agent's page in the web app when piped, with no request", async () => {
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const result = await against('https://agents.example/api/v1')(['persistent', 'get', id, '--web']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`https://agents.example/app/agents/${id}\n`);
    const emulated = await agentctl(['persistent', 'view', id, '--web']); // the built-in emulator address
    expect(emulated.exitCode).toBe(2);
    expect(emulated.stderr).toContain('no web app');
  });
});
