import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { completionScript } from '../../completion/index.js';
import { SHELLS, type Shell } from '../../completion/shells.js';
import { UsageError } from '../../errors.js';

export const command = defineCommand({
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh, fish or powershell): subcommands, flags, their values and file names',
  args: [{ name: '<shell>', description: 'the shell to complete in', choices: SHELLS }],
  notes:
    "The script is generated from agentctl's own command definitions and needs nothing else at completion\n" +
    "time. The same files are in the package's completions/ folder.",
  exitCodes: LOCAL_EXITS,
  examples: [
    'agentctl completion bash > ~/.local/share/bash-completion/completions/agentctl',
    'agentctl completion zsh > "${fpath[1]}/_agentctl"',
    'agentctl completion fish > ~/.config/fish/completions/agentctl.fish',
    'agentctl completion powershell | Out-String | Invoke-Expression   # add to $PROFILE',
    'source <(agentctl completion bash)   # this shell only',
  ],
  parse: (input) => ({ shell: input.arg(0) as Shell }),
  async run({ shell }, ctx) {
    // A shell script is not JSON: refuse rather than break the promise that --json prints only JSON.
    if (ctx.out.machine) throw new UsageError('completion prints a shell script; drop --json/--jsonl/--jq');
    // The whole tree: the program that runs this command was built with only the `completion` subtree.
    ctx.out.line(completionScript(shell, await ctx.commandTree()).replace(/\n$/, ''));
  },
});
