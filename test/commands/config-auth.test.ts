import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { agentctl, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: 'secret-key-4242' });
});
afterAll(() => emulator.close());

describe('config', () => {
  it('sets, gets, lists and unsets settings in a 0600 file under XDG_CONFIG_HOME/agentctl', async () => {
    const home = tempDir();
    const path = (await agentctl(['config', 'path'], { configHome: home })).stdout.trim();
    expect(path).toBe(join(home, 'agentctl', 'config.json'));

    expect((await agentctl(['config', 'set', 'base-url', 'http://example.test/api/v1/'], { configHome: home })).exitCode).toBe(0);
    expect((await agentctl(['config', 'set', 'api-key', '-'], { configHome: home, input: 'abcdefghijkl\n' })).exitCode).toBe(0);
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
    expect((statSync(join(home, 'agentctl')).mode & 0o777).toString(8)).toBe('700');

    expect((await agentctl(['config', 'get', 'base-url'], { configHome: home })).stdout).toBe('http://example.test/api/v1\n');
    const key = await agentctl(['config', 'get', 'api-key'], { configHome: home });
    expect(key.stdout).toBe('****ijkl\n');
    const list = await agentctl(['config', 'list', '--json'], { configHome: home });
    expect(JSON.parse(list.stdout)).toEqual({ default: { 'base-url': 'http://example.test/api/v1', 'api-key': '****ijkl' } });
    expect(list.stdout).not.toContain('abcdefghijkl');

    expect((await agentctl(['config', 'unset', 'base-url'], { configHome: home })).exitCode).toBe(0);
    expect((await agentctl(['config', 'get', 'base-url'], { configHome: home })).exitCode).toBe(4);
    expect((await agentctl(['config', 'get', 'colour'], { configHome: home })).exitCode).toBe(2);
    expect((await agentctl(['config', 'set', 'base-url', 'ftp://x'], { configHome: home })).exitCode).toBe(2);
  });

  it('keeps profiles apart and uses them by flag or AGENTCTL_PROFILE', async () => {
    const home = tempDir();
    await agentctl(['config', 'set', 'base-url', emulator.baseUrl, '--profile', 'emu'], { configHome: home });
    await agentctl(['config', 'set', 'api-key', '-', '--profile', 'emu'], { configHome: home, input: 'secret-key-4242' });
    expect((await agentctl(['agents', 'list', '--profile', 'emu'], { configHome: home })).exitCode).toBe(0);
    expect((await agentctl(['agents', 'list'], { configHome: home, env: { AGENTCTL_PROFILE: 'emu' } })).exitCode).toBe(0);
    const unknown = await agentctl(['agents', 'list', '--profile', 'nope'], { configHome: home });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('known profiles: emu');
    // The environment wins over the profile.
    const envWins = await agentctl(['agents', 'list', '--profile', 'emu'], { configHome: home, env: { AGENTCTL_API_KEY: 'wrong' } });
    expect(envWins.exitCode).toBe(3);
  });

  it('explains a broken config file by name, never quoting it, and `config path` still works', async () => {
    const home = tempDir();
    await agentctl(['config', 'set', 'base-url', 'http://x.test/api/v1'], { configHome: home });
    const { writeFileSync } = await import('node:fs');
    const file = join(home, 'agentctl', 'config.json');
    writeFileSync(file, '{"profiles": {"default": {"api-key": sk-live-0123456789abcdef}}}');
    const result = await agentctl(['config', 'list'], { configHome: home });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`the config file ${file} is not valid JSON`);
    expect(result.stderr).not.toContain('sk-live');
    const path = await agentctl(['config', 'path'], { configHome: home });
    expect(path).toMatchObject({ exitCode: 0, stdout: `${file}\n` });
  });

  it('says when the config folder cannot be made: a file in the way, or no permission', async () => {
    const home = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(home, 'agentctl'), 'not a folder');
    const blocked = await agentctl(['config', 'set', 'base-url', 'http://x.test/api/v1'], { configHome: home });
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stderr).toContain(`${join(home, 'agentctl')} is a file, not a folder`);
    expect(blocked.stderr).not.toMatch(/bug|ENOTDIR|at .*\.js/);

    // ~/.config itself a file (configHome stands for it here).
    const dotConfig = join(tempDir(), '.config');
    writeFileSync(dotConfig, '');
    const parent = await agentctl(['auth', 'logout'], { configHome: dotConfig });
    expect(parent.exitCode).toBe(2);
    expect(parent.stderr).toContain(`${dotConfig} is a file, not a folder`);

    // /sys refuses new folders even to root.
    const denied = await agentctl(['config', 'set', 'base-url', 'http://x.test/api/v1'], { configHome: '/sys' });
    expect(denied.exitCode).toBe(2);
    expect(denied.stderr).toContain('/sys/agentctl');
    expect(denied.stderr).toContain('permission denied');
    expect(denied.stderr).not.toContain('bug');
  });

  it('keeps every profile when logins run in parallel', async () => {
    const home = tempDir();
    const runs = Array.from({ length: 10 }, (_, i) =>
      agentctl(['auth', 'login', '--profile', `p${i}`, '--base-url', emulator.baseUrl], { configHome: home, input: 'secret-key-4242' }),
    );
    for (const run of await Promise.all(runs)) expect(run.exitCode, run.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(home, 'agentctl', 'config.json'), 'utf8'));
    expect(Object.keys(stored.profiles).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`).sort());
    expect((statSync(join(home, 'agentctl', 'config.json')).mode & 0o777).toString(8)).toBe('600');
  });
});

describe('auth', () => {
  it('logs in with a key from stdin, checks it with /ping/, stores it, and logs out', async () => {
    const home = tempDir();
    const login = await agentctl(['auth', 'login', '--base-url', emulator.baseUrl], { configHome: home, input: 'secret-key-4242\n' });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toContain('Logged in');
    expect(login.stderr + login.stdout).not.toContain('secret-key-4242');
    const stored = JSON.parse(readFileSync(join(home, 'agentctl', 'config.json'), 'utf8'));
    expect(stored.profiles.default).toEqual({ 'api-key': 'secret-key-4242', 'base-url': emulator.baseUrl });

    const status = await agentctl(['auth', 'status', '--json'], { configHome: home });
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'default', base_url: emulator.baseUrl, api_key_source: 'profile', ok: true });
    expect(status.stdout).not.toContain('secret-key-4242');

    expect((await agentctl(['auth', 'logout'], { configHome: home })).exitCode).toBe(0);
    const after = await agentctl(['auth', 'status'], { configHome: home });
    expect(after.exitCode).toBe(3);
  });

  it('refuses a wrong key at login and stores nothing', async () => {
    const home = tempDir();
    const login = await agentctl(['auth', 'login', '--base-url', emulator.baseUrl, '--profile', 'bad'], { configHome: home, input: 'nope-nope' });
    expect(login.exitCode).toBe(3);
    expect((await agentctl(['config', 'list', '--all-profiles', '--json'], { configHome: home })).stdout.trim()).toBe('{}');
  });

  it('warns when the key is given in argv', async () => {
    const home = tempDir();
    const login = await agentctl(['auth', 'login', '--base-url', emulator.baseUrl, '--api-key', 'secret-key-4242'], { configHome: home });
    expect(login.exitCode).toBe(0);
    expect(login.stderr).toMatch(/warning: --api-key puts the key in argv/);
    expect(login.stderr).toContain('--api-key-file');
  });

  it('reads the key from --api-key-file', async () => {
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'key'), 'secret-key-4242\n', { mode: 0o600 });
    const result = await agentctl(['agents', 'list', '--api-key-file', join(dir, 'key'), '--base-url', emulator.baseUrl]);
    expect(result.exitCode).toBe(0);
    const missing = await agentctl(['agents', 'list', '--api-key-file', join(dir, 'nope'), '--base-url', emulator.baseUrl]);
    expect(missing.exitCode).toBe(2);
  });

  it('takes a key with a trailing newline from the environment (a common CI secret) and refuses one with spaces before any request', async () => {
    const env = (key: string) => ({ env: { AGENTCTL_API_KEY: key, AGENTCTL_BASE_URL: emulator.baseUrl } });
    const trailing = await agentctl(['agents', 'list', '--json'], env('secret-key-4242\n'));
    expect(trailing.exitCode).toBe(0);
    for (const key of ['secret key-4242', 'secret-key-4242\nsecond-line', 'secret-k\u00e9y-4242']) {
      const result = await agentctl(['agents', 'list', '--json'], env(key));
      expect(result.exitCode, JSON.stringify(key)).toBe(2);
      expect(result.stderr).toContain('the API key from $AGENTCTL_API_KEY must be a single line');
      // Not a network failure (exit 8), and the key itself is not echoed.
      expect(result.stderr).not.toContain('secret');
    }
  });
});

describe('config get', () => {
  it('config get nosuch names the key and the keys there are, in our words', async () => {
    const result = await agentctl(['config', 'get', 'nosuch']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: unknown key "nosuch": choose one of base-url, api-key, output, timeout, insecure-http\n/);
    expect(result.stderr).not.toContain('command-argument');
  });
});
