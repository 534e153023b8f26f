import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, childEnv, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
});
afterAll(() => emulator.close());

describe('on a pseudo-terminal', () => {
  // `script` gives the CLI a real pseudo-terminal; piped onward it reports 0 columns, which once sent
  // the spinner into an endless loop. The follow must finish and print its result.
  it('follows a task to its result even when the terminal reports no width', async () => {
    const home = tempDir();
    const command = `${process.execPath} ${BIN} tasks create "pty follow" --follow --interval 0.05`;
    const result = await execa('script', ['-qec', command, '/dev/null'], {
      reject: false,
      timeout: 150_000,
      stdin: 'ignore',
      extendEnv: false,
      env: childEnv(home, { TERM: 'xterm', AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' }),
    });
    expect(result.timedOut, 'the follow never ended').toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Emulated result for: pty follow');
  });
});
