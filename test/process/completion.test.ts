// Loads each generated completion script in its real shell and checks what it offers for partial
// command lines. bash: the completion function with COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT set;
// zsh: an interactive zsh under zpty with compinit, Tab pressed (shells/zsh-complete.zsh), compinit
// loading a dump file made once for the script, as a user's ~/.zcompdump;
// fish: `complete -C`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_STATUSES } from '../../src/contract/enums.js';
import { buildProgram } from '../../src/cli/program.js';
import { allCommands, completionModel } from '../../src/completion/model.js';
import { agentctl, tempDir } from '../helpers/cli.js';

type Shell = 'bash' | 'zsh' | 'fish';
const ZSH_DRIVER = join(import.meta.dirname, 'shells', 'zsh-complete.zsh');

const model = completionModel(await buildProgram([]));
const subcommandsOf = (path: string): string[] =>
  allCommands(model).find((command) => command.path.join(' ') === path)?.subcommands.map((command) => command.name) ?? [];
const FILES = ['prompt.txt', 'schema.json', 'secrets.json', 'sub'];

interface Case {
  line: string;
  /** The exact candidates (order ignored), or a check of them. */
  expected: string[] | ((candidates: string[]) => void);
}

const CASES: Case[] = [
  { line: 'agentctl ta', expected: ['tasks'] },
  { line: 'agentctl ', expected: subcommandsOf('') },
  { line: 'agentctl tasks ', expected: subcommandsOf('tasks') },
  { line: 'agentctl config ', expected: subcommandsOf('config') },
  { line: 'agentctl auth lo', expected: ['login', 'logout'] },
  { line: 'agentctl tasks list --st', expected: ['--status'] },
  { line: 'agentctl tasks list --status ', expected: [...TASK_STATUSES] },
  { line: 'agentctl tasks list --status c', expected: ['completed', 'cancelled'] },
  { line: 'agentctl tasks list --status=', expected: [...TASK_STATUSES] },
  { line: 'agentctl completion ', expected: ['bash', 'zsh', 'fish', 'powershell'] },
  { line: 'agentctl tasks create --prompt-file ', expected: FILES },
  { line: 'agentctl tasks create --secrets-file s', expected: ['secrets.json', 'schema.json', 'sub'] },
  { line: 'agentctl webhook-listen --output p', expected: ['prompt.txt'] },
  { line: 'agentctl --api-key-file ', expected: FILES },
  // global flags after a subcommand, and a global flag with its value before it
  { line: 'agentctl tasks list --js', expected: ['--json', '--jsonl'] },
  { line: 'agentctl tasks wait --verb', expected: ['--verbose'] },
  { line: 'agentctl --profile prod tasks cr', expected: ['create'] },
  // both words of a two-word flag are skipped
  { line: 'agentctl tasks create --secret example.com USER=me --fo', expected: ['--follow'] },
  { line: 'agentctl emulator --port 0 --h', expected: ['--host', '--help'] },
  {
    line: 'agentctl tasks get ',
    expected: (candidates) => {
      for (const file of FILES) expect(candidates).not.toContain(file);
      expect(candidates).not.toContain('list');
    },
  },
];

async function available(shell: Shell): Promise<boolean> {
  const result = await execa('sh', ['-c', `command -v ${shell}`], { reject: false });
  return result.exitCode === 0;
}

/** bash splits words at COMP_WORDBREAKS characters too; "=" is one of them, so "--a=b" is "--a" "=" "b". */
function bashWords(line: string): string[] {
  const words = line
    .trim()
    .split(/\s+/)
    .flatMap((word) => word.split(/(=)/).filter((part) => part !== ''));
  if (/\s$/.test(line)) words.push('');
  return words;
}

async function complete(shell: Shell, script: string, line: string, cwd: string, zshDump: string): Promise<string[]> {
  let stdout: string;
  if (shell === 'bash') {
    // With the cursor right after "=", bash's current word is the "=" itself.
    const words = bashWords(line);
    const driver =
      'source "$1" || exit 9; complete -p agentctl >/dev/null || exit 9; COMP_LINE=$2; COMP_POINT=${#2}; shift 2; ' +
      'COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); ' +
      '_agentctl agentctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf "%s\\n" "${COMPREPLY[@]}"';
    ({ stdout } = await execa('bash', ['--norc', '--noprofile', '-c', driver, 'bash', script, line, ...words], { cwd }));
  } else if (shell === 'zsh') {
    ({ stdout } = await execa('zsh', ['-f', ZSH_DRIVER, join(script, '..'), line, zshDump], { cwd, timeout: 150_000 }));
  } else {
    ({ stdout } = await execa('fish', ['--no-config', '-c', 'source $argv[1]; or exit 9; complete -C $argv[2]', script, line], { cwd }));
  }
  return stdout
    .split('\n')
    .map((row) => (row.split('\t')[0] as string).replace(/\/$/, '').replace(/^--[a-z-]+=/, ''))
    .filter((row) => row !== '');
}

for (const shell of ['bash', 'zsh', 'fish'] as const) {
  describe(`${shell} completion`, async () => {
    const present = await available(shell);
    if (!present && process.env.CI) {
      it(`needs ${shell}`, () => {
        throw new Error(`${shell} is not installed, so its completion script cannot be tested: install it (.ci/run does: apt-get install zsh fish)`);
      });
      return;
    }
    if (!present) {
      // Locally a missing shell is skipped, visibly; in CI (above) it fails.
      it.skip(`skipped: ${shell} is not installed (apt-get install ${shell})`, () => {});
      return;
    }

    let script: string;
    let cwd: string;
    let zshDump: string;
    beforeAll(async () => {
      const dir = tempDir('agentctl-completion-');
      const file = { bash: 'agentctl.bash', zsh: '_agentctl', fish: 'agentctl.fish' }[shell];
      const result = await agentctl(['completion', shell]);
      expect(result.exitCode).toBe(0);
      script = join(dir, file);
      writeFileSync(script, result.stdout);
      cwd = join(dir, 'work');
      mkdirSync(join(cwd, 'sub'), { recursive: true });
      for (const name of FILES.filter((name) => name !== 'sub')) writeFileSync(join(cwd, name), '{}');
      zshDump = join(dir, 'zcompdump');
      if (shell === 'zsh') await execa('zsh', ['-f', ZSH_DRIVER, dir, '--dump', zshDump]);
    });

    it.concurrent.each(CASES)('completes $line', async ({ line, expected }) => {
      const candidates = await complete(shell, script, line, cwd, zshDump);
      if (typeof expected === 'function') expected(candidates);
      else expect([...new Set(candidates)].sort(), `candidates for "${line}"`).toEqual([...expected].sort());
    });
  });
}

describe('the completion command', () => {
  it('rejects an unknown shell with exit 2 and the allowed values', async () => {
    const result = await agentctl(['completion', 'tcsh']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/bash, zsh, fish, powershell/);
  });

  it('prints the same scripts as the checked-in completions/ files', async () => {
    const files = { bash: 'agentctl.bash', zsh: '_agentctl', fish: 'agentctl.fish', powershell: 'agentctl.ps1' };
    for (const [shell, file] of Object.entries(files)) {
      const result = await agentctl(['completion', shell]);
      const checkedIn = readFileSync(join(import.meta.dirname, '..', '..', 'completions', file), 'utf8');
      expect(result.stdout === checkedIn, `completions/${file} is stale: run \`npm run completions\``).toBe(true);
    }
  });

  it('is not loaded by --version or tasks --help (start-up stays fast)', () => {
    // A probe preloaded into each run lists the files of dist/ that Node read: none may hold the generator.
    const probe = join(tempDir('agentctl-probe-'), 'loaded.cjs');
    writeFileSync(probe, "process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(Object.keys(require.cache))));");
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'agentctl.js');
    for (const args of [['--version'], ['tasks', '--help']]) {
      const run = spawnSync(process.execPath, ['--require', probe, bin, ...args], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      const loaded = (JSON.parse(run.stderr) as string[]).filter((file) => file.includes(`${sep}dist${sep}`));
      expect(loaded.length).toBeGreaterThan(0);
      for (const file of loaded) expect(readFileSync(file, 'utf8'), `${args.join(' ')} read ${file}`).not.toContain('compdef');
    }
  });
});

describe('completion and --json', () => {
  it('refuses --json: a shell script is not JSON', async () => {
    const { agentctl: run } = await import('../helpers/cli.js');
    const result = await run(['completion', 'bash', '--json']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('drop --json');
  });
});
