// The npm package as users get it: `npm pack` holds only what is needed, and the tarball installs
// globally into a temporary prefix and works there (version, completion scripts, man pages when the
// package has them, emulator, a task followed to the end), with no dependency installed beside it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, tempDir } from '../helpers/cli.js';
import { npmEnv, packedPackage } from '../helpers/pack.js';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string>; scripts?: Record<string, string> };

describe('the npm package', () => {
  let tarball: string;
  let files: string[];
  let prefix: string;
  let emulator: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    // One pack per test run, shared with the other tests that install the package.
    ({ tarball, files } = await packedPackage());
  }, 60_000);

  afterAll(async () => {
    if (emulator) await killAndWait(emulator);
  });

  it('contains the built CLI, bin, completions, man pages, README and LICENSE, and nothing else', () => {
    for (const needed of ['bin/agentctl.js', 'dist/cli/main.js', 'completions/agentctl.bash', 'completions/_agentctl', 'completions/agentctl.fish', 'man/agentctl.1', 'man/agentctl-tasks.1', 'README.md', 'LICENSE', 'package.json']) {
      expect(files).toContain(needed);
    }
    const unexpected = files.filter((file) => !/^(bin|dist|completions|man)\//.test(file) && !['README.md', 'LICENSE', 'package.json'].includes(file));
    expect(unexpected, 'files that should not be in the package').toEqual([]);
    expect(files.some((file) => /^(src|test|node_modules|scripts|bench|\.ci)\//.test(file))).toBe(false);
  });

  it('runs no install script (npm 11 asks to approve those): the build ships in dist/', () => {
    const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => pkg.scripts?.[name] !== undefined);
    expect(installScripts).toEqual([]);
    expect(pkg.scripts?.prepack).toContain('build');
  });

  it('carries the licence notices of the libraries bundled into dist/', () => {
    expect(files).toContain('dist/THIRD_PARTY_LICENSES.md');
    const notices = readFileSync(join(ROOT, 'dist', 'THIRD_PARTY_LICENSES.md'), 'utf8');
    for (const library of ['commander', 'zod', 'chalk', 'ora', 'cli-table3', 'croner']) {
      expect(notices).toMatch(new RegExp(`^## ${library} \\d`, 'm'));
    }
    expect(notices).toContain('Permission is hereby granted');
  });

  it('installs with npm install -g into a prefix and runs from there', async () => {
    prefix = tempDir('agentctl-prefix-');
    // dist/ is self-contained, so the package has no runtime dependencies and installs with no registry.
    expect(pkg.dependencies ?? {}).toEqual({});
    const install = await execa('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
      env: npmEnv,
      reject: false,
      timeout: 150_000,
    });
    expect(install.exitCode, `npm install -g failed:\n${install.stderr}`).toBe(0);

    const bin = join(prefix, 'bin', 'agentctl');
    const installed = join(prefix, 'lib', 'node_modules', 'agentctl');
    // Everything is bundled: nothing was installed beside the package.
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);
    const env = { PATH: process.env.PATH, HOME: prefix, XDG_CONFIG_HOME: prefix };
    const version = await execa(bin, ['--version'], { env, extendEnv: false });
    expect(version.stdout.trim()).toBe(pkg.version);

    // package.json's "man" puts the pages where `man agentctl` looks after a global install.
    for (const page of ['agentctl.1', 'agentctl-tasks.1']) expect(existsSync(join(prefix, 'share', 'man', 'man1', page)), page).toBe(true);

    const script = await execa(bin, ['completion', 'fish'], { env, extendEnv: false });
    expect(`${script.stdout}\n`).toBe(readFileSync(join(installed, 'completions', 'agentctl.fish'), 'utf8'));
    // The installed bash script loads in bash and completes a noun.
    const bashFile = join(installed, 'completions', 'agentctl.bash');
    const completed = await execa(
      'bash',
      ['--norc', '--noprofile', '-c', 'source "$1" && COMP_WORDS=(agentctl ta) COMP_CWORD=1 COMP_LINE="agentctl ta" COMP_POINT=11 && _agentctl && echo "${COMPREPLY[@]}"', 'bash', bashFile],
      { env, extendEnv: false },
    );
    expect(completed.stdout.trim()).toBe('tasks');

    // Man pages: every packed page is in the prefix's share/man, as packed (test/process/man-pages
    // renders each one), and `man` finds them there by name.
    const pages = files.filter((file) => /^man\/.+\.\d$/.test(file));
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      const name = page.split('/').pop()!;
      const linked = join(prefix, 'share', 'man', `man${name.slice(-1)}`, name);
      expect(readFileSync(linked, 'utf8'), linked).toBe(readFileSync(join(ROOT, page), 'utf8'));
    }
    const manEnv = { ...env, MANPATH: join(prefix, 'share', 'man'), MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' };
    for (const name of ['agentctl', 'agentctl-tasks-create']) {
      const shown = await execa('man', [name], { env: manEnv, extendEnv: false, reject: false });
      expect(shown.exitCode, `man ${name}: ${shown.stderr}`).toBe(0);
      expect(shown.stdout).toContain(`${name.toUpperCase()}(1)`);
    }

    emulator = spawn(bin, ['emulator', '--port', '0', '--task-duration', '200'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      createInterface({ input: emulator!.stdout! }).once('line', resolve);
      emulator!.once('exit', (code) => reject(new Error(`the installed emulator exited with ${code}`)));
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

    const task = await execa(bin, ['tasks', 'create', 'Find the cheapest flight to Oslo', '--follow'], {
      env: { ...env, AGENTCTL_BASE_URL: baseUrl, AGENTCTL_API_KEY: 'emulator-key' },
      extendEnv: false,
      reject: false,
      timeout: 150_000,
    });
    expect(task.exitCode, task.stderr).toBe(0);
    expect(task.stdout).toContain('Find the cheapest flight to Oslo');
  }, 180_000);

  it('runs with npx from the project folder (a fresh clone builds itself on the first run)', async () => {
    const result = await execa('npx', ['--no-install', 'agentctl', '--version'], { cwd: ROOT, env: npmEnv, reject: false, timeout: 150_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  }, 90_000);
});
