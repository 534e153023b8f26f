// What a completion script needs to know about the command tree, read from the Commander program
// itself so the scripts never drift from the real commands. Pure: no process, no I/O.
import type { Command, Option } from 'commander';

export interface OptionSpec {
  /** `-q` (without a value name), if any. */
  short?: string;
  /** `--status`, if any. */
  long?: string;
  description: string;
  /** How many words follow the flag: 0 for a switch, 2 for `--secret <domain> <key=value>`. */
  arity: number;
  /** The value names, e.g. `['status']`. */
  valueNames: string[];
  /** Fixed values (`Option.choices`). */
  choices?: string[];
  /** The value is a file path: a value name `<path>` or `<file>` (or `<path|json>`). */
  file: boolean;
  /** May be given more than once (variadic, or "repeatable" in its description). */
  repeatable: boolean;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  choices?: string[];
}

export interface CommandSpec {
  name: string;
  /** Names from the root's child down to this command (empty for the root). */
  path: string[];
  description: string;
  aliases: string[];
  /** Options of this command, including its help flag (and the version flag at the root). */
  options: OptionSpec[];
  arguments: ArgumentSpec[];
  subcommands: CommandSpec[];
}

export interface CompletionModel {
  /** The program's name, e.g. `agentctl`. */
  name: string;
  root: CommandSpec;
  /** Options of the root that are accepted after any subcommand too (all but help and version). */
  globals: OptionSpec[];
}

const FILE_VALUE = /^(path|file)$/i;

/** One option as the scripts see it. */
export function optionSpec(option: Option): OptionSpec {
  const valueNames = [...option.flags.matchAll(/[<[]([^>\]]+)[>\]]/g)].map((match) => (match[1] as string).replace(/\.\.\.$/, ''));
  const repeatable = option.variadic || /\brepeatable\b/i.test(option.description);
  return {
    ...(option.short ? { short: option.short } : {}),
    ...(option.long ? { long: option.long } : {}),
    description: oneLine(option.description),
    arity: valueNames.length,
    valueNames,
    ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
    file: valueNames.some((name) => name.split('|').some((part) => FILE_VALUE.test(part))),
    repeatable,
  };
}

/** The first line of a description, without trailing punctuation noise. */
export function oneLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

function isHidden(command: Command): boolean {
  return Boolean((command as Command & { _hidden?: boolean })._hidden);
}

function commandSpec(command: Command, path: string[]): CommandSpec {
  const help = command.createHelp();
  return {
    name: command.name(),
    path,
    description: oneLine(command.description()),
    aliases: command.aliases(),
    options: help.visibleOptions(command).map(optionSpec),
    arguments: command.registeredArguments.map((argument) => ({
      name: argument.name(),
      description: oneLine(argument.description),
      required: argument.required,
      variadic: argument.variadic,
      ...(argument.argChoices ? { choices: [...argument.argChoices] } : {}),
    })),
    // Only defined commands: the implicit `help` command commander adds is left out.
    subcommands: command.commands.filter((sub) => !isHidden(sub)).map((sub) => commandSpec(sub, [...path, sub.name()])),
  };
}

/** Reads the whole tree. Pass the full program (`buildProgram([])`), not a subtree built for one command. */
export function completionModel(program: Command): CompletionModel {
  const root = commandSpec(program, []);
  const globals = root.options.filter((option) => option.long !== '--help' && option.long !== '--version');
  return { name: program.name(), root, globals };
}

/** Every command of the tree, depth first, root first. */
export function allCommands(model: CompletionModel): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (command: CommandSpec): void => {
    out.push(command);
    command.subcommands.forEach(visit);
  };
  visit(model.root);
  return out;
}

/** The options accepted at a command: its own, then the globals (the root has them as its own). */
export function optionsAt(model: CompletionModel, command: CommandSpec): OptionSpec[] {
  if (command.path.length === 0) return command.options;
  const own = new Set(command.options.flatMap(flagsOf));
  return [...command.options, ...model.globals.filter((option) => !flagsOf(option).some((flag) => own.has(flag)))];
}

/** Every flag spelling of an option: `-q`, `--quiet`. */
export function flagsOf(option: OptionSpec): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}
