import { Argument, type Command } from 'commander';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';
import { SHELLS } from '../../completion/shells.js';

export function register(program: Command): void {
  examples(
    program
      .command('completion')
      .description('print a shell completion script (bash, zsh or fish): subcommands, flags, their values and file names')
      .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
      .addHelpText(
        'after',
        '\nThe script is generated from agentctl\'s own command definitions and needs nothing else at completion\n' +
          'time. The same files are in the package\'s completions/ folder.',
      ),
    [
      'agentctl completion bash > ~/.local/share/bash-completion/completions/agentctl',
      'agentctl completion zsh > "${fpath[1]}/_agentctl"',
      'agentctl completion fish > ~/.config/fish/completions/agentctl.fish',
      'source <(agentctl completion bash)   # this shell only',
    ],
  ).action(lazy(() => import('./print.js')));
}
