// The verbs gh users type (ls, view, rm) as aliases of list, get and delete (src/cli).
import { describe, expect, it } from 'vitest';

describe('the verbs gh users type', () => {
  it('ls, view and rm are list, get and delete', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js');
    const { against } = await import('../helpers/cli.js');
    const emulator = await startEmulator({ port: 0 });
    try {
      const cli = against(emulator.baseUrl);
      const created = JSON.parse((await cli(['agents', 'create', '--name', 'alias-test', '--json'])).stdout) as { id: string };
      const listed = await cli(['agents', 'ls', '--json']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(created.id);
      const viewed = await cli(['agents', 'view', created.id, '--json']);
      expect(viewed.exitCode, viewed.stderr).toBe(0);
      expect(JSON.parse(viewed.stdout)).toMatchObject({ id: created.id });
      expect((await cli(['agents', 'rm', created.id, '--yes'])).exitCode).toBe(0);
      expect((await cli(['agents', 'view', created.id])).exitCode).toBe(4);
      expect((await cli(['tasks', 'ls'])).exitCode).toBe(0);
      expect((await cli(['persistent', 'ls'])).exitCode).toBe(0);
      expect((await cli(['tasks', 'ls', '--help'])).stdout).toMatch(/agentctl tasks list/);
    } finally {
      await emulator.close();
    }
  });
});
