import { describe, expect, it } from 'vitest';
import { exportLines } from '../../src/commands/emulator/start.js';
import { DEFAULT_BASE_URL } from '../../src/config/settings.js';

// The lines `agentctl emulator` prints on stderr so another shell can reach it.
describe('emulator export lines', () => {
  it('are not needed on the default address with the default key (agentctl finds it by itself)', () => {
    expect(exportLines(DEFAULT_BASE_URL, undefined)).toEqual([]);
  });

  it('name the base URL and the default key on another port', () => {
    expect(exportLines('http://127.0.0.1:41234/api/v1', undefined)).toEqual([
      'To use it from another shell:',
      'export AGENTCTL_BASE_URL=http://127.0.0.1:41234/api/v1',
      'export AGENTCTL_API_KEY=emulator-key',
    ]);
  });

  it('never echo a key of the user\'s choosing', () => {
    const lines = exportLines(DEFAULT_BASE_URL, 'my-secret-key');
    expect(lines).toContain(`export AGENTCTL_BASE_URL=${DEFAULT_BASE_URL}`);
    expect(lines.join('\n')).not.toContain('my-secret-key');
  });
});
