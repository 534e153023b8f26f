import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { joinTwoWordOptions } from '../../src/cli/argv.js';
import type { GlobalFlags } from '../../src/cli/context.js';
import { ParseInput } from '../../src/cli/define.js';
import { buildProgram, resolveVerbAlias, withoutHelpForUnknownCommand, type Execute } from '../../src/cli/program.js';

/**
 * The typed options a command's `parse` makes of argv, through commander as a run builds them, with
 * no context, no service and no request (gh's `TestNewCmd...` tables). Rejects with the UsageError
 * of `parse`, or the CommanderError of commander (its message is the text a run prints).
 */
export async function parseArgv(argv: string[], stdin = ''): Promise<unknown> {
  let parsed: unknown;
  const execute: Execute = async (load, command, positional) => {
    const spec = await load();
    parsed = await spec.parse(ParseInput.of(command, positional, command.optsWithGlobals<GlobalFlags>(), () => Readable.from([stdin])));
  };
  const program = await buildProgram(argv, execute);
  silence(program);
  await program.parseAsync(joinTwoWordOptions(withoutHelpForUnknownCommand(program, resolveVerbAlias(program, argv))), { from: 'user' });
  return parsed;
}

function silence(command: Command): void {
  command.configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
  for (const sub of command.commands) silence(sub);
}
