// agentctl tasks result: its exit code says how the task ended, or that it has not.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against } from '../helpers/cli.js';
import { emulatorForFile, type FileEmulator } from '../helpers/emulator-file.js';

const service = emulatorForFile();
const cli: FileEmulator['cli'] = (...args) => service.cli(...args);
const { createTask } = service;

describe('tasks result', () => {
  it('exits 9 while the task has not finished, 6 when cancelled, 5 when failed', async () => {
    const running = await createTask('still running');
    const pending = await cli(['tasks', 'result', running.id]);
    expect(pending.exitCode).toBe(9);
    expect(pending.stderr).toContain(`agentctl tasks wait ${running.id}`);
    await apiRequest(service.emulator.baseUrl, 'POST', `/tasks/browser-use/${running.id}/cancel/`);
    expect((await cli(['tasks', 'result', running.id])).exitCode).toBe(6);

    const fast = await startEmulator({ port: 0, taskDurationMs: 10 });
    try {
      const failing = await apiRequest<{ id: string }>(fast.baseUrl, 'POST', '/tasks/browser-use/', { prompt: '[fail] this one' });
      const wait = await against(fast.baseUrl)(['tasks', 'wait', failing.id, '--interval', '0.05']);
      expect(wait.exitCode).toBe(5);
      expect((await against(fast.baseUrl)(['tasks', 'result', failing.id])).exitCode).toBe(5);
    } finally {
      await fast.close();
    }
  });
});
