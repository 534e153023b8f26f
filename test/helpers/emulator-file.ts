// One emulator for a test file (started before its tests, closed after), the CLI against it, and a
// task made through the API: the set-up of the files that test a command against the service.
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from './api.js';
import { against } from './cli.js';

export interface FileEmulator {
  readonly emulator: RunningEmulator;
  readonly cli: ReturnType<typeof against>;
  createTask(prompt: string): Promise<{ id: string }>;
}

export function emulatorForFile(options: Partial<EmulatorOptions> = { taskDurationMs: 60_000 }): FileEmulator {
  let emulator: RunningEmulator | undefined;
  let cli: ReturnType<typeof against> | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options });
    cli = against(emulator.baseUrl);
  });
  afterAll(() => emulator?.close());
  const started = () => {
    if (!emulator || !cli) throw new Error('the emulator starts before the file\'s tests');
    return { emulator, cli };
  };
  return {
    get emulator() {
      return started().emulator;
    },
    get cli() {
      return started().cli;
    },
    createTask: (prompt) => apiRequest<{ id: string }>(started().emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt }),
  };
}
