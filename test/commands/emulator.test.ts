// agentctl emulator (the command): its banner, and refusals before it listens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { agentctl } from '../helpers/cli.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 60_000 });
});
afterAll(() => emulator.close());

describe('emulator banner', () => {
  it('says when --faults are on, and which', async () => {
    const stop = new AbortController();
    const result = await agentctl(['emulator', '--port', '0', '--faults', '503@20%, latency=100ms'], {
      signal: stop.signal,
      onStdout: (text) => text.includes('\n') && stop.abort('SIGTERM'),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('Faults are on (--faults 503@20%, latency=100ms): some requests fail or slow down on purpose.');
  });

  it('says nothing of faults without --faults', async () => {
    const stop = new AbortController();
    const result = await agentctl(['emulator', '--port', '0'], { signal: stop.signal, onStdout: (text) => text.includes('\n') && stop.abort('SIGTERM') });
    expect(result.stderr).not.toContain('Faults');
  });
});

describe('local servers that cannot start', () => {
  it('emulator and webhook-listen on a port in use exit 2 with what to change, no stack trace', async () => {
    // The in-process emulator of this file holds a port already.
    const port = new URL(emulator.baseUrl).port;
    for (const args of [['emulator', '--port', port], ['webhook-listen', '--port', port]]) {
      const result = await agentctl(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(result.stderr).toContain('pick another --port');
      expect(result.stderr).not.toContain('this is a bug');
    }
  });

  it('emulator --api-key "" is refused before it listens', async () => {
    const result = await agentctl(['emulator', '--port', '0', '--api-key', '']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('the API key from --api-key is empty');
    expect(result.stdout).toBe('');
  });
});
