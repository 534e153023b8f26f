import type { Command } from 'commander';
import { defineCommand } from '../../cli/define.js';
import { HelpOutput } from '../../cli/help-output.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { UsageError } from '../../errors.js';
import { terminalOf } from '../../output/terminal.js';

export const command = defineCommand({
  name: 'help',
  summary: 'show help for a command: agentctl help tasks create is agentctl tasks create --help',
  args: [{ name: '[command...]', description: 'the command, e.g. tasks or tasks create (none: every command)' }],
  exitCodes: LOCAL_EXITS,
  examples: ['agentctl help', 'agentctl help tasks', 'agentctl help tasks create'],
  parse: (input) => ({ path: input.args(0) }),
  async run({ path }, ctx) {
    // The whole tree: the program that runs this command may hold only part of it.
    let target: Command = await ctx.commandTree();
    const walked: string[] = [];
    for (const word of path) {
      const next = target.commands.find((command) => command.name() === word || command.aliases().includes(word));
      if (!next) {
        const where = walked.length ? `agentctl ${walked.join(' ')}` : 'agentctl';
        const known = target.commands.map((command) => command.name());
        throw new UsageError(
          `unknown command "${[...walked, word].join(' ')}"`,
          known.length ? `commands of ${where}: ${known.join(', ')}` : `${where} has no subcommands`,
        );
      }
      walked.push(word);
      target = next;
    }
    const io = ctx.io;
    const help = new HelpOutput(io); // long help at a terminal goes through the pager
    // The terminal's colour and width, and --no-color / --json on top, as every other output has them.
    const colour = ctx.out.settings.color;
    target.configureOutput({
      writeOut: (text) => help.write(text),
      getOutHelpWidth: () => terminalOf(io).helpWidth('stdout') as number,
      getOutHasColors: () => colour,
    });
    target.outputHelp();
    await help.end();
  },
});
