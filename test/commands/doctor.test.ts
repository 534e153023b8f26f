// agentctl doctor: what it reports, and what it says when the base URL or the config file is wrong.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { agentctl, against, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
/** The emulator's address as a user might type it: without /api/v1. */
let bare: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 60_000 });
  cli = against(emulator.baseUrl);
  bare = emulator.baseUrl.replace(/\/api\/v1$/, '');
});
afterAll(() => emulator.close());

describe('doctor', () => {
  it('reports base URL, key source (never the key), reachability, emulator, config and clock skew', async () => {
    const result = await cli(['doctor', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      base_url: emulator.baseUrl,
      base_url_source: 'env',
      api_key_source: 'env',
      service: 'emulator',
      ping: { ok: true },
      config: { exists: false },
    });
    expect(report.ping.latency_ms).toBeGreaterThanOrEqual(0);
    expect(Math.abs(report.clock_skew_seconds)).toBeLessThanOrEqual(2);
    expect(report.config.path).toMatch(/agentctl\/config\.json$/);
    const human = await cli(['doctor']);
    expect(human.stdout + human.stderr).not.toContain('emulator-key');
    expect(human.stdout).toContain('agentctl emulator');
  });

  it('exits with the failure\'s code when the service cannot be reached', async () => {
    const result = await agentctl(['doctor', '--base-url', 'http://127.0.0.1:9/api/v1', '--api-key', 'k123', '--timeout', '2']);
    expect(result.exitCode).toBe(8);
    expect(result.stdout).toMatch(/reachable\s+no/);
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

describe('doctor with a base URL without /api/v1', () => {
  it('doctor says so first, names the corrected URL (which answers) and exits 2', async () => {
    const result = await cli(['doctor', '--base-url', bare]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toContain(`${bare} (flag): lacks /api/v1, use ${bare}/api/v1`);
    // No blank rows: what could not be learned says why.
    expect(result.stdout).toMatch(/^service\tnot known \(the service did not answer\)$/m);
    expect(result.stdout).toMatch(/^clock_skew\tnot known/m);
    const [first] = result.stderr.split('\n');
    expect(first).toBe(`warning: base_url: ${bare} lacks /api/v1: ${bare}/api/v1 answers GET /ping/; use --base-url ${bare}/api/v1`);

    const json = JSON.parse((await cli(['doctor', '--base-url', bare, '--json'])).stdout);
    expect(json).toMatchObject({ suggested_base_url: `${bare}/api/v1`, ping: { ok: false, exit_code: 2 } });
    expect(json.problems[0]).toContain('lacks /api/v1');
  });
});
