import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { COMPLETION_FILES, SHELLS, completionScript } from '../../src/completion/index.js';
import { allCommands, completionModel, optionSpec, optionsAt } from '../../src/completion/model.js';

const FULL_PROGRAM = await buildProgram([]);

const COMPLETIONS = join(import.meta.dirname, '..', '..', 'completions');

describe('the completion model', () => {
  const model = completionModel(FULL_PROGRAM);
  const find = (path: string) => allCommands(model).find((command) => command.path.join(' ') === path);

  it('covers every command of the program', () => {
    expect(model.root.subcommands.map((command) => command.name)).toEqual(expect.arrayContaining(['agents', 'tasks', 'completion']));
    expect(find('tasks')?.subcommands.map((command) => command.name)).toContain('wait');
    // commander's implicit `help` subcommand is not offered
    expect(find('tasks')?.subcommands.map((command) => command.name)).not.toContain('help');
  });

  it('reads enum values, file flags and arities from the option definitions', () => {
    const status = find('tasks list')?.options.find((option) => option.long === '--status');
    expect(status).toMatchObject({ arity: 1, choices: ['pending', 'in_progress', 'completed', 'failed', 'cancelled'], file: false });
    const create = find('tasks create');
    expect(create?.options.find((option) => option.long === '--prompt-file')).toMatchObject({ arity: 1, file: true });
    expect(create?.options.find((option) => option.long === '--output-schema')).toMatchObject({ file: true });
    expect(create?.options.find((option) => option.long === '--secret')).toMatchObject({ arity: 2, repeatable: true, file: false });
    expect(create?.options.find((option) => option.long === '--follow')).toMatchObject({ arity: 0 });
    expect(find('webhook-listen')?.options.find((option) => option.long === '--output')).toMatchObject({ file: true });
    expect(find('webhook-listen')?.options.find((option) => option.long === '--path')).toMatchObject({ file: false });
    expect(find('completion')?.arguments[0]).toMatchObject({ name: 'shell', choices: ['bash', 'zsh', 'fish', 'powershell'] });
  });

  it('offers global options at every command, but help and version only where they belong', () => {
    expect(model.globals.map((option) => option.long)).toEqual(expect.arrayContaining(['--json', '--api-key-file', '--timeout']));
    expect(model.globals.find((option) => option.long === '--api-key-file')).toMatchObject({ file: true });
    const flags = optionsAt(model, find('tasks list')!).map((option) => option.long);
    expect(flags).toEqual(expect.arrayContaining(['--status', '--help', '--json', '--base-url']));
    expect(flags).not.toContain('--version');
  });

  it('treats <path>, <file> and path|json value names as files, and nothing else', () => {
    expect(optionSpec(new Option('--charter-file <path>', 'x'))).toMatchObject({ file: true });
    expect(optionSpec(new Option('--data <json|@file>', 'x'))).toMatchObject({ file: false });
    expect(optionSpec(new Option('--channel <c>', 'x').choices(['email', 'sms']))).toMatchObject({ choices: ['email', 'sms'], file: false });
  });

  it('picks up commands added later, with no list to maintain', () => {
    const program = new Command('agentctl').option('--json', 'json');
    program
      .command('persistent')
      .description('p')
      .command('message')
      .description('m')
      .addOption(new Option('--channel <channel>', 'c').choices(['email', 'sms', 'slack']))
      .option('--charter-file <path>', 'f');
    const bash = completionScript('bash', program);
    expect(bash).toContain(`'persistent message:--channel') echo '1 choice email sms slack'`);
    expect(bash).toContain(`'persistent message:--charter-file') echo '1 file'`);
    expect(completionScript('fish', program)).toContain(`-l channel -x -a 'email sms slack'`);
    expect(completionScript('zsh', program)).toContain(`'--channel=[c]:channel:(email sms slack)'`);
  });
});

describe('the checked-in completion scripts', () => {
  const program = FULL_PROGRAM;
  for (const shell of SHELLS) {
    it(`completions/${COMPLETION_FILES[shell]} is the current ${shell} script`, () => {
      const file = join(COMPLETIONS, COMPLETION_FILES[shell]);
      const stale = `completions/${COMPLETION_FILES[shell]} is stale: the commands changed since it was generated. Run \`npm run completions\` and commit the result.`;
      expect(readFileSync(file, 'utf8') === completionScript(shell, program), stale).toBe(true);
    });
  }
});
