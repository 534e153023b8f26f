import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { jsonLines } from '../helpers/json-lines.js';
import { against } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const FAST = ['--interval', '0.05'];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 100 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const create = async (prompt: string) => (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt })).id;

describe('tasks wait ID ID...', () => {
  it('waits for all: one JSON line per task as it ends, exit with the worst outcome', async () => {
    const ok = await create('fine');
    const failed = await create('this will [fail]');
    const result = await cli(['tasks', 'wait', ok, failed, ...FAST]);
    expect(result.exitCode).toBe(5);
    const out = jsonLines(result.stdout);
    expect(out.map((o) => o.id).sort()).toEqual([ok, failed].sort());
    expect(out.find((o) => o.id === ok)).toMatchObject({ status: 'completed', error: null });
    expect(out.find((o) => o.id === failed)).toMatchObject({ status: 'failed', error: expect.stringContaining('[fail]') });
    expect(result.stderr).toMatch(/2\/2 tasks/);
  });

  it('--any stops at the first task to end, with its code', async () => {
    const hanging = await create('[hang] forever');
    const ok = await create('quick');
    const result = await cli(['tasks', 'wait', hanging, ok, '--any', ...FAST]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ id: ok, status: 'completed' })]);
  });

  it('--timeout ends the wait with 7 and the command that resumes it for the ones left', async () => {
    const hanging = await create('[hang] still going');
    const ok = await create('quick one');
    const result = await cli(['tasks', 'wait', hanging, ok, '--timeout', '1', ...FAST]);
    expect(result.exitCode).toBe(7);
    expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ id: ok, status: 'completed' })]);
    expect(result.stderr).toContain(`agentctl tasks wait ${hanging}`);
    expect(result.stderr).not.toContain(`wait ${hanging} ${ok}`);
  });

  it('an unknown id is reported on its line (exit 4); a malformed one is refused before any request', async () => {
    const ok = await create('known');
    const missing = '00000000-0000-4000-8000-000000000000';
    const result = await cli(['tasks', 'wait', ok, missing, ...FAST]);
    expect(result.exitCode).toBe(4);
    expect(jsonLines(result.stdout).find((o) => o.id === missing)).toMatchObject({ status: 'error' });
    const bad = await cli(['tasks', 'wait', ok, 'nope']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/not a UUID/);
  });

  it('Ctrl-C exits 130 with the command that resumes the wait', async () => {
    const a = await create('[hang] a');
    const b = await create('[hang] b');
    const interrupt = new AbortController();
    // Ctrl-C once the wait polls (a busy machine may take a while to get there), not after a time.
    const polls = () => emulator.requests.filter((request) => request.method === 'GET' && request.path.includes(b)).length;
    void eventually(() => polls() > 0 || undefined, undefined, 'a poll of the tasks').then(() => interrupt.abort('SIGINT'));
    const result = await cli(['tasks', 'wait', a, b, ...FAST], { signal: interrupt.signal });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain(`agentctl tasks wait ${a} ${b}`);
  });
});
