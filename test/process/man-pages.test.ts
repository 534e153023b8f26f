import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

// The man pages as `man` shows them (man-db and groff; CI installs them). Skipped where there is no man.
const MAN = join(import.meta.dirname, '..', '..', 'man');
const hasMan = spawnSync('man', ['--version'], { stdio: 'ignore' }).status === 0;
const env = { MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' };

describe.skipIf(!hasMan)('the man pages', () => {
  it.each(readdirSync(MAN).filter((file) => file.endsWith('.1')))('%s renders with man -l, without a warning', async (file) => {
    const result = await execa('man', ['--warnings', '-l', join(MAN, file)], {
      env,
      reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const name = file.replace(/\.1$/, '');
    expect(result.stdout).toContain(`${name.toUpperCase()}(1)`);
    expect(result.stdout).toMatch(/^SEE ALSO$/m);
  });

  it('shows flags as typed (ASCII hyphens) and links the command pages', async () => {
    const result = await execa('man', ['-l', join(MAN, 'agentctl.1')], { env });
    expect(result.stdout).toContain('--base-url <url>');
    expect(result.stdout).toContain('agentctl-tasks(1)');
    const tasks = await execa('man', ['-l', join(MAN, 'agentctl-tasks.1')], { env });
    expect(tasks.stdout).toContain('agentctl tasks create [options] [prompt]');
    expect(tasks.stdout).toContain('--prompt-file <path>');
  });
});

describe('a man page per subcommand', () => {
  it('exists for every verb, as git has them (man agentctl-tasks-create)', () => {
    const pages = new Set(readdirSync(MAN));
    for (const verb of ['tasks-create', 'tasks-run-batch', 'persistent-chat', 'persistent-get', 'config-set', 'agents-delete', 'webhook-listen-replay']) {
      expect(pages.has(`agentctl-${verb}.1`), `man/agentctl-${verb}.1`).toBe(true);
    }
  });

  it.skipIf(!hasMan)('shows the verb alone: synopsis, options, examples', async () => {
    const page = await execa('man', ['-l', join(MAN, 'agentctl-tasks-create.1')], { env });
    expect(page.stdout).toContain('agentctl tasks create [options] [prompt]');
    expect(page.stdout).toMatch(/^OPTIONS$/m);
    expect(page.stdout).toMatch(/^EXAMPLES$/m);
    expect(page.stdout).toContain('agentctl-tasks(1)');
    expect(page.stdout).not.toContain('agentctl tasks list [options]');
  });
});
