import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { ptyAgentctl, render } from '../helpers/pty.js';

// What a person at a terminal sees, through a real pseudo-terminal at 80 and 40 columns.

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
});
afterAll(() => emulator.close());


describe.each([80, 40])('at %i columns', (columns) => {
  it('auth login shows its "API key: " prompt and does not echo the key', async () => {
    const run = ptyAgentctl(['auth', 'login', '--base-url', emulator.baseUrl], { columns });
    await run.waitFor((output) => output.includes('API key: '), 'the prompt');
    run.type('emulator-key\r');
    const { exitCode, output } = await run.done();
    const screen = render(output, columns);
    expect(exitCode, screen.join('\n')).toBe(0);
    const promptLine = screen.find((line) => line.startsWith('API key:'));
    expect(promptLine, `no prompt on the screen:\n${screen.join('\n')}`).toBe('API key:');
    expect(output).not.toContain('emulator-key');
    expect(screen.join('')).toContain('Logged in');
  });
});
