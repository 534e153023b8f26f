import { linkSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock, startEmulator, StateFileError, type RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';

// The library users' test suites import (`agentctl/emulator`): port 0, a clock the test moves,
// seeded ids, reset, the request log, and records kept in a JSON file across restarts.

const KEY = { 'x-api-key': 'emulator-key', 'content-type': 'application/json' };
const post = async (emulator: RunningEmulator, path: string, body: unknown) =>
  (await (await fetch(`${emulator.baseUrl}${path}`, { method: 'POST', headers: KEY, body: JSON.stringify(body) })).json()) as { id: string; status: string };
const get = async (emulator: RunningEmulator, path: string) => (await (await fetch(`${emulator.baseUrl}${path}`, { headers: KEY })).json()) as Record<string, unknown>;

describe('the emulator library', () => {
  it('finishes tasks when the test advances its clock, and gives the same ids for the same seed', async () => {
    const ids: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const emulator = await startEmulator({ port: 0, clock: new ManualClock(), seed: 9, taskDurationMs: 1000 });
      const agent = await post(emulator, '/agents/browser-use/', { name: 'seeded' });
      const task = await post(emulator, `/agents/browser-use/${agent.id}/tasks/`, { prompt: 'go' });
      expect(task.status).toBe('pending');
      emulator.advance(1000);
      expect(await get(emulator, `/tasks/browser-use/${task.id}/result/`)).toMatchObject({ status: 'completed' });
      ids.push([agent.id, task.id]);
      await emulator.close();
    }
    expect(ids[1]).toEqual(ids[0]);
    const other = await startEmulator({ port: 0, seed: 10 });
    expect((await post(other, '/agents/browser-use/', { name: 'seeded' })).id).not.toBe(ids[0]?.[0]);
    // advance() needs a ManualClock: on the system clock it says so.
    expect(() => other.advance(1)).toThrow('ManualClock');
    await other.close();
  });

  it('fires an agent\'s schedule when the test advances the clock past it: a thinking event and a web task running the charter', async () => {
    const emulator = await startEmulator({ port: 0, clock: new ManualClock(new Date('2026-03-02T10:00:00Z')), taskDurationMs: 1000 });
    const agent = await post(emulator, '/agents/', { name: 'scheduled', charter: 'Check the prices.', schedule: '@every 1h' });
    const webTasks = async () => ((await get(emulator, `/agents/${agent.id}/web-tasks/`)).results as { prompt: string; status: string }[]);
    emulator.advance(59 * 60_000);
    expect(await webTasks()).toEqual([]);
    emulator.advance(60_000);
    expect(await webTasks()).toMatchObject([{ prompt: 'Check the prices.', status: 'pending' }]);
    const events = (await get(emulator, `/agents/${agent.id}/timeline/`)).events as { kind: string; reasoning?: string }[];
    expect(events.at(-1)).toMatchObject({ kind: 'thinking', reasoning: 'Scheduled run (@every 1h): working on my charter.' });
    emulator.advance(2 * 3600_000);
    expect(await webTasks()).toHaveLength(3);
    // A paused agent's schedule does not fire.
    await post(emulator, `/agents/${agent.id}/deactivate/`, {});
    emulator.advance(5 * 3600_000);
    expect(await webTasks()).toHaveLength(3);
    await emulator.close();
  });

  it('logs every request (method, path, status) and forgets everything on reset', async () => {
    const emulator = await startEmulator({ port: 0, clock: new ManualClock() });
    await post(emulator, '/tasks/browser-use/', { prompt: 'logged' });
    await get(emulator, '/tasks/browser-use/?page_size=5');
    expect(emulator.requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'POST', path: '/tasks/browser-use/', status: 201 },
      { method: 'GET', path: '/tasks/browser-use/?page_size=5', status: 200 },
    ]);
    const control = emulator.baseUrl.replace(/\/api\/v1$/, '/_emulator');
    expect(((await (await fetch(`${control}/requests`)).json()) as { requests: unknown[] }).requests).toHaveLength(2);
    expect((await fetch(`${control}/reset`, { method: 'POST' })).status).toBe(204);
    expect(await get(emulator, '/tasks/browser-use/')).toMatchObject({ count: 0 });
    expect(emulator.requests).toHaveLength(1);
    emulator.reset();
    expect(emulator.requests).toHaveLength(0);
    await emulator.close();
  });

  it('keeps its records in a state file across a restart; a task that was running runs on', async () => {
    const file = join(tempDir('agentctl-state-'), 'state.json');
    const clock = new ManualClock();
    const first = await startEmulator({ port: 0, clock, stateFile: file, taskDurationMs: 1000 });
    const done = await post(first, '/tasks/browser-use/', { prompt: 'finished before the restart' });
    first.advance(1000);
    const running = await post(first, '/tasks/browser-use/', { prompt: 'still running' });
    const agent = await post(first, '/agents/', { name: 'kept', charter: 'Keep going.' });
    await first.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });

    const second = await startEmulator({ port: 0, clock, stateFile: file, taskDurationMs: 1000 });
    expect(await get(second, '/tasks/browser-use/')).toMatchObject({ count: 2 });
    expect(await get(second, `/tasks/browser-use/${done.id}/result/`)).toMatchObject({ status: 'completed', result: 'Emulated result for: finished before the restart' });
    expect(await get(second, `/agents/${agent.id}/`)).toMatchObject({ name: 'kept', charter: 'Keep going.' });
    expect(((await get(second, `/agents/${agent.id}/timeline/`)).events as unknown[]).length).toBe(2);
    second.advance(1000);
    expect(await get(second, `/tasks/browser-use/${running.id}/`)).toMatchObject({ status: 'completed' });
    // New records continue after the loaded ones (newest first).
    const later = await post(second, '/tasks/browser-use/', { prompt: 'after' });
    expect(((await get(second, '/tasks/browser-use/')).results as { id: string }[])[0]?.id).toBe(later.id);
    await second.close();
  });

  it('says which set of records answers (x-agentctl-emulator-run): the same across a restart with a state file, new without one and after a reset', async () => {
    const runOf = async (emulator: RunningEmulator) => (await fetch(`${emulator.baseUrl}/tasks/browser-use/`, { headers: KEY })).headers.get('x-agentctl-emulator-run');
    const file = join(tempDir('agentctl-state-'), 'state.json');
    const first = await startEmulator({ port: 0, stateFile: file });
    const run = await runOf(first);
    expect(run).toMatch(/^[0-9a-f-]{36}$/);
    // Every answer carries it, a 404 included.
    expect((await fetch(`${first.baseUrl}/nowhere/`)).headers.get('x-agentctl-emulator-run')).toBe(run);
    await first.close();
    const second = await startEmulator({ port: 0, stateFile: file });
    expect(await runOf(second)).toBe(run);
    second.reset();
    expect(await runOf(second)).not.toBe(run);
    await second.close();
    const fresh = await startEmulator({ port: 0 });
    expect(await runOf(fresh)).not.toBe(run);
    await fresh.close();
  });

  it('refuses a state file it could not save at close: its folder does not exist', async () => {
    const file = join(tempDir('agentctl-state-'), 'missing', 'state.json');
    const started = startEmulator({ port: 0, stateFile: file });
    await expect(started).rejects.toThrow(StateFileError);
    await expect(started).rejects.toThrow(`cannot save to ${file}: the folder`);
  });

  it('saves by replacing the file whole: a reader of the previous save never sees it half rewritten', async () => {
    const folder = tempDir('agentctl-state-');
    const file = join(folder, 'state.json');
    const emulator = await startEmulator({ port: 0, stateFile: file });
    await emulator.save();
    const before = readFileSync(file, 'utf8');
    // A second name for the saved file: written in place, it would change too; replaced, it keeps the old save.
    linkSync(file, join(folder, 'previous.json'));
    await post(emulator, '/tasks/browser-use/', { prompt: 'saved next' });
    await emulator.close();
    expect(readFileSync(join(folder, 'previous.json'), 'utf8')).toBe(before);
    expect(readFileSync(file, 'utf8')).toContain('saved next');
    expect(readdirSync(folder).sort()).toEqual(['previous.json', 'state.json']);
  });
});
