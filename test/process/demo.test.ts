import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

// The README's first set-up command ends in this script; a fresh clone must get a task's result.
describe('npm run demo', () => {
  it('runs a task to its result, previews a schedule and creates a persistent agent, offline', async () => {
    const home = tempDir();
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'demo.mjs');
    const result = await execa(process.execPath, [script], {
      reject: false,
      timeout: 150_000,
      extendEnv: false,
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('Emulated result for: Find the three cheapest');
    expect(result.stdout).toMatch(/^next\t2\d{3}-\d{2}-\d{2}T07:00:00\.000Z$/m);
    expect(result.stdout).toMatch(/^name\tfare-watcher$/m);
    expect(result.stdout).toContain('Done.');
    // After a clone agentctl is not on PATH: the closing line names a form that works there.
    expect(result.stdout).toContain('`npx agentctl emulator`');
  }, 90_000);
});
