import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';

// The man pages as `man` shows them (man-db and groff; CI installs them). Skipped where there is no groff or man.
const MAN = join(import.meta.dirname, '..', '..', 'man');
const hasMan = spawnSync('man', ['--version'], { stdio: 'ignore' }).status === 0;
const env = { MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' };

const hasGroff = spawnSync('groff', ['--version'], { stdio: 'ignore' }).status === 0;
const PAGES = readdirSync(MAN).filter((file) => file.endsWith('.1'));

/**
 * Every page through groff's man macros at once, as man runs it (preconv, tbl, 80 columns) with every
 * warning on: one run instead of 53 man pipelines of seven processes (~70 ms of CPU each). A
 * warning names its file (troff: man/PAGE.1:LINE: warning: ...). The pages, by file.
 */
async function renderAll(): Promise<{ pages: Map<string, string>; stderr: string; exitCode: number | undefined }> {
  const result = await execa('groff', ['-man', '-k', '-t', '-ww', '-Tutf8', '-rLL=80n', '-rLT=80n', '-P-cbou', ...PAGES.map((file) => join(MAN, file))], { env, reject: false });
  const pages = new Map<string, string>();
  // Each page starts with its header line, e.g. "AGENTCTL-TASKS(1)   agentctl manual   AGENTCTL-TASKS(1)".
  for (const page of String(result.stdout).split(/^(?=AGENTCTL\S*\(1\))/m)) {
    const title = /^(AGENTCTL\S*)\(1\)/.exec(page)?.[1];
    if (title) pages.set(`${title.toLowerCase()}.1`, page);
  }
  return { pages, stderr: String(result.stderr), exitCode: result.exitCode };
}

describe.skipIf(!hasGroff)('the man pages', () => {
  let rendered: Awaited<ReturnType<typeof renderAll>>;
  beforeAll(async () => {
    rendered = await renderAll();
    expect(rendered.exitCode, rendered.stderr).toBe(0);
  });

  it.each(PAGES)('%s renders with the man macros, without a warning', (file) => {
    expect(rendered.stderr.split('\n').filter((line) => line.includes(`/${file}:`))).toEqual([]);
    const page = rendered.pages.get(file);
    expect(page, `no page rendered from ${file}`).toBeDefined();
    expect(page).toContain(`${file.replace(/\.1$/, '').toUpperCase()}(1)`);
    expect(page).toMatch(/^SEE ALSO$/m);
  });

  it('renders nothing else, and warns of nothing', () => {
    expect(rendered.stderr).toBe('');
    expect([...rendered.pages.keys()].sort()).toEqual([...PAGES].sort());
  });
});

describe.skipIf(!hasMan)('the man pages under man', () => {
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
