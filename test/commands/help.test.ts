// agentctl help [command...].
import { describe, expect, it } from 'vitest';
import { agentctl } from '../helpers/cli.js';

describe('help [command...]', () => {
  it('answers at every level, like --help', async () => {
    for (const path of [[], ['tasks'], ['tasks', 'create'], ['config', 'set']]) {
      const viaHelp = await agentctl(['help', ...path]);
      const viaFlag = await agentctl([...path, '--help']);
      expect(viaHelp.exitCode, viaHelp.stderr).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
  });

  it('names the commands there are for an unknown one (exit 2)', async () => {
    const result = await agentctl(['help', 'tasks', 'bogus']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('unknown command "tasks bogus"');
    expect(result.stderr).toContain('create');
  });
});
