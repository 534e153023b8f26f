import type { Command } from 'commander';

/** Adds an "Examples:" section to a command's help; every command has at least one. */
export function examples(command: Command, lines: string[]): Command {
  command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`);
  (command as Command & { examples?: string[] }).examples = lines;
  return command;
}

/** The examples recorded on a command (for the help test and generated docs). */
export function examplesOf(command: Command): string[] {
  return (command as Command & { examples?: string[] }).examples ?? [];
}
