import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, childEnv, tempDir } from '../helpers/cli.js';

// The README's quick tour works by copy-paste from a clone: the commands that use the files in
// examples/ (and the lines that use what those commands made, like $agent) are run as written, by a
// shell with `agentctl` on its PATH, against an emulator.
const ROOT = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The tour's commands, one per logical line (continuations joined, comments and blanks dropped). */
function tourCommands(): string[] {
  const tour = /^## Quick tour\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme);
  if (!tour) throw new Error('README.md has no "## Quick tour" with a ```sh block');
  return tour[1]!
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The commands that use examples/, and those that use a variable such a command set. */
function commandsWithExamples(): string[] {
  const variables = new Set<string>();
  return tourCommands().filter((command) => {
    const uses = command.includes('examples/') || [...variables].some((name) => command.includes(`"$${name}"`));
    const assigned = /^(\w+)=\$\(/.exec(command)?.[1];
    if (uses && assigned) variables.add(assigned);
    return uses;
  });
}

describe("the README's quick tour", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
  });
  afterAll(() => emulator.close());

  it('names only example files that exist', () => {
    const named = [...new Set(tourCommands().join('\n').match(/examples\/[\w.-]+/g) ?? [])];
    expect(named).toEqual(expect.arrayContaining(['examples/prompt.txt', 'examples/schema.json', 'examples/secrets.json', 'examples/charter.md', 'examples/tasks.jsonl']));
    for (const file of named) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it('starts every background emulator with -q, so its request log stays out of the shell (issue 47)', () => {
    const background = tourCommands().filter((command) => /^agentctl emulator\b.*&$/.test(command));
    expect(background.length).toBeGreaterThan(0);
    for (const command of background) expect(command, command).toMatch(/\s(-q|--quiet)\b/);
  });

  it('runs the commands that use examples/ against the emulator, each exiting 0', async () => {
    const commands = commandsWithExamples();
    expect(commands.length).toBeGreaterThanOrEqual(5);
    // A copy of examples/ in a folder of its own: the run's ledger and results stay out of the clone.
    // Only its tracked files: what a user's own tour left there (a ledger, results) is not the test's.
    const work = tempDir('agentctl-tour-');
    const tracked = await trackedExamples();
    expect(tracked).toContain('examples/tasks.jsonl');
    for (const file of tracked) {
      mkdirSync(dirname(join(work, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(work, file));
    }
    writeFileSync(join(work, 'agentctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(work, 'agentctl'), 0o755);
    const script = commands.map((command) => `${command} || { echo "FAILED ($?): ${command.replace(/["$`\\]/g, '\\$&')}" >&2; exit 1; }`).join('\n');
    const result = await execa('bash', ['-c', script], {
      cwd: work,
      reject: false,
      timeout: 150_000,
      extendEnv: false,
      env: childEnv(work, { PATH: `${work}:${process.env.PATH}`, AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' }),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    // The batch's results: one JSON line per task of examples/tasks.jsonl, each completed.
    const results = readFileSync(join(work, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { status: string });
    expect(results.length).toBe(readFileSync(join(ROOT, 'examples', 'tasks.jsonl'), 'utf8').split('\n').filter((line) => line.trim() !== '').length);
    expect(results.every((line) => line.status === 'completed')).toBe(true);
  }, 90_000);
});

/**
 * The tracked files of examples/ (paths from the root). In a git checkout, what git tracks; in a copy
 * without git (CI's lone copy of the tracked files), every file there is a tracked one.
 */
async function trackedExamples(): Promise<string[]> {
  const git = await execa('git', ['ls-files', '-z', 'examples'], { cwd: ROOT, reject: false });
  if (git.exitCode === 0 && git.stdout !== '') return git.stdout.split('\0').filter(Boolean);
  return readdirSync(join(ROOT, 'examples'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'));
}
