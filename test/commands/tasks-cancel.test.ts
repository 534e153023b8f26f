// agentctl tasks cancel: twice is not an error, and says so in every format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 60_000 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

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
