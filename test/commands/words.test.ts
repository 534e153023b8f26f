// What agentctl says in the places a newcomer met unclear words (issue 35, item 8).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentctl, tempDir } from '../helpers/cli.js';

describe('schedule-preview --tz', () => {
  it('says that only the display changes: the schedule runs in UTC', async () => {
    const result = await agentctl(['schedule-preview', '30 6 * * *', '--tz', 'Europe/Oslo', '--from', '2026-01-01T00:00:00Z']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('Times are shown in Europe/Oslo; the schedule itself runs in UTC, as the service evaluates it.');
  });
});

describe('doctor on a broken config file', () => {
  it('says the service was not asked (not that it did not answer), and names the problem once', async () => {
    const home = tempDir();
    mkdirSync(join(home, 'agentctl'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'agentctl', 'config.json'), '{bad', { mode: 0o600 });
    const result = await agentctl(['doctor'], { configHome: home });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).not.toContain('did not answer');
    expect(result.stdout).toMatch(/^reachable\tnot checked: the config file is broken$/m);
    expect(result.stdout).toMatch(/^service\tnot checked$/m);
    expect(result.stderr.match(/not valid JSON/g)).toHaveLength(1);
  });
});

describe('a value that is not one of the choices', () => {
  it('config get nosuch names the key and the keys there are, in our words', async () => {
    const result = await agentctl(['config', 'get', 'nosuch']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: unknown key "nosuch": choose one of base-url, api-key, output, timeout, insecure-http\n/);
    expect(result.stderr).not.toContain('command-argument');
  });

  it('an option value out of its choices is worded the same way', async () => {
    const result = await agentctl(['persistent', 'timeline', '7c9e6679-7425-40de-944b-e07fc1f90ae7', '--direction', 'sideways']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: --direction "sideways" is not one of initial, older, newer\n/);
  });
});

describe('emulator banner', () => {
  it('says when --faults are on, and which', async () => {
    const stop = new AbortController();
    const result = await agentctl(['emulator', '--port', '0', '--faults', '503@20%, latency=100ms'], {
      signal: stop.signal,
      onStdout: (text) => text.includes('\n') && stop.abort('SIGTERM'),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('Faults are on (--faults 503@20%, latency=100ms): some requests fail or slow down on purpose.');
  });

  it('says nothing of faults without --faults', async () => {
    const stop = new AbortController();
    const result = await agentctl(['emulator', '--port', '0'], { signal: stop.signal, onStdout: (text) => text.includes('\n') && stop.abort('SIGTERM') });
    expect(result.stderr).not.toContain('Faults');
  });
});

describe('the verbs gh users type', () => {
  it('ls, view and rm are list, get and delete', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js');
    const { against } = await import('../helpers/cli.js');
    const emulator = await startEmulator({ port: 0 });
    try {
      const cli = against(emulator.baseUrl);
      const created = JSON.parse((await cli(['agents', 'create', '--name', 'alias-test', '--json'])).stdout) as { id: string };
      const listed = await cli(['agents', 'ls', '--json']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(created.id);
      const viewed = await cli(['agents', 'view', created.id, '--json']);
      expect(viewed.exitCode, viewed.stderr).toBe(0);
      expect(JSON.parse(viewed.stdout)).toMatchObject({ id: created.id });
      expect((await cli(['agents', 'rm', created.id, '--yes'])).exitCode).toBe(0);
      expect((await cli(['agents', 'view', created.id])).exitCode).toBe(4);
      expect((await cli(['tasks', 'ls'])).exitCode).toBe(0);
      expect((await cli(['persistent', 'ls'])).exitCode).toBe(0);
      expect((await cli(['tasks', 'ls', '--help'])).stdout).toMatch(/agentctl tasks list/);
    } finally {
      await emulator.close();
    }
  });
});
