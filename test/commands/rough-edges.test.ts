// Rough edges a new user met (issue 21, section 3), each as that user sees it, in-process against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { agentctl, against } from '../helpers/cli.js';

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

describe('a base URL without /api/v1', () => {
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

  it('every command hints the URL the user gave with /api/v1 appended, not the default port', async () => {
    const result = await cli(['tasks', 'list'], { env: { AGENTCTL_BASE_URL: `${bare}/` } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`hint: the base URL ${bare} lacks /api/v1: use --base-url ${bare}/api/v1`);
    expect(result.stderr).not.toContain('8787');
  });
});

describe('tasks list at 80 columns', () => {
  it('keeps a shortened prompt and leaves CREDITS and CREATED out instead', async () => {
    await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'Find the cheapest flight from Oslo to Rome in May and list three options' });
    const result = await cli(['tasks', 'list', '--page-size', '3'], { terminal: { stdoutIsTTY: true, columns: 80 }, env: { NO_COLOR: '1' } });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+PROMPT$/);
    expect(result.stdout).toMatch(/Find the cheapest flight.*…/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // A wide terminal still shows everything.
    const wide = await cli(['tasks', 'list', '--page-size', '3'], { terminal: { stdoutIsTTY: true, columns: 140 }, env: { NO_COLOR: '1' } });
    expect(wide.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+CREATED\s+CREDITS\s+PROMPT$/);
  });
});

describe('usage errors in the order a person fixes them', () => {
  it('persistent message with no arguments asks for the id and body before --channel', async () => {
    const bareMessage = await agentctl(['persistent', 'message']);
    expect(bareMessage.exitCode).toBe(2);
    expect(bareMessage.stderr).toContain("missing required argument 'id'");
    expect(bareMessage.stderr).not.toContain('--channel');
    const noChannel = await agentctl(['persistent', 'message', '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', 'hello']);
    expect(noChannel.exitCode).toBe(2);
    expect(noChannel.stderr).toContain("required option '--channel <channel>' not specified");
  });

  it('an unknown verb or noun is exit 2 with did-you-mean, --help or not', async () => {
    for (const argv of [['tasks', 'bogus', '--help'], ['tasks', 'bogus'], ['bogus', '-h']]) {
      const result = await agentctl(argv);
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(result.stdout, argv.join(' ')).toBe('');
      expect(result.stderr).toContain("unknown command 'bogus'");
    }
    const typo = await agentctl(['tasks', 'lst', '--help']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('Did you mean list?');
    // Known commands still answer --help, also a noun's own help verb.
    expect((await agentctl(['tasks', 'list', '--help'])).exitCode).toBe(0);
    expect((await agentctl(['webhook-listen', 'replay', '--help'])).exitCode).toBe(0);
  });

  it('--page 0 is refused like any bad number, without a 16-digit limit', async () => {
    const result = await cli(['tasks', 'list', '--page', '0']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('error: --page must be 1 or more, got 0');
    expect(result.stderr).not.toContain('9007199254740991');
  });
});

describe('tasks cancel twice', () => {
  it('says "already cancelled" in every format; stdout stays the same status line when piped', async () => {
    const task = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'cancel me twice' });
    const first = await cli(['tasks', 'cancel', task.id]);
    expect(first).toMatchObject({ exitCode: 0, stdout: 'status\tcancelled\n' });
    expect(first.stderr).not.toContain('already');

    const piped = await cli(['tasks', 'cancel', task.id]);
    expect(piped).toMatchObject({ exitCode: 0, stdout: 'status\tcancelled\n' });
    expect(piped.stderr).toContain(`Task ${task.id} was already cancelled.`);
    const json = await cli(['tasks', 'cancel', task.id, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ status: 'cancelled', message: 'Task was already cancelled.' });
    const terminal = await cli(['tasks', 'cancel', task.id], { terminal: { stdoutIsTTY: true, stderrIsTTY: true, columns: 100 } });
    expect(terminal.stderr).toContain('already cancelled');
  });
});

describe('the version', () => {
  it('agentctl version names agentctl and its runtime; --json for scripts', async () => {
    const text = await agentctl(['version']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^agentctl version \S+ \(node\/\d+\.\d+\.\d+\)\n$/);
    const json = JSON.parse((await agentctl(['version', '--json'])).stdout);
    expect(json).toEqual({ version: (await agentctl(['--version'])).stdout.trim(), runtime: expect.stringMatching(/^node\//) });
  });

  it('-v is refused with where the version is (and that it is not --verbose)', async () => {
    const result = await agentctl(['-v']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option '-v'");
    expect(result.stderr).toContain('agentctl --version');
    expect(result.stderr).toContain('--verbose');
  });
});
