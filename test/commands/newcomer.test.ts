// A newcomer's first hour, round 2 (issue 47): each item as that user meets it, in-process against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { against } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 50 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const pausedAgent = async () => {
  const { id } = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: `paused-${Date.now()}-${Math.random()}`, charter: 'Watch prices.' });
  await apiRequest(emulator.baseUrl, 'POST', `/agents/${id}/deactivate/`);
  return id;
};

describe('persistent chat to a paused agent (item 4)', () => {
  it('scripted: the failed send ends the chat (exit 1) and names persistent activate', async () => {
    const id = await pausedAgent();
    const result = await cli(['persistent', 'chat', id, '--reply-timeout', '5'], { input: 'hi\nand again\n' });
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toContain('409');
    expect(result.stderr).toContain(`agentctl persistent activate ${id}`);
  });

  it('persistent message says the same', async () => {
    const id = await pausedAgent();
    const result = await cli(['persistent', 'message', id, 'hi', '--channel', 'web']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`hint: the agent is paused: \`agentctl persistent activate ${id}\``);
  });
});
