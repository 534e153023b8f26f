import { UsageError } from '../errors.js';
import type { Context, GlobalFlags } from './context.js';
import type { ExitCodes } from './exit-codes.js';
import type { Command } from 'commander';

// A command is one file: its flags, arguments, help examples, a parse step that turns commander's
// values into a typed options object, and `run(options, ctx)`. The definition part (everything but
// parse and run) is plain data, so the build can store the whole tree as JSON and a run loads only
// the module of the command it runs.

export interface OptionSpec {
  /** Commander's flags string: '--status <status>', '-y, --yes', '--no-schedule'. */
  flags: string;
  description: string;
  /** Fixed values: help lists them, commander refuses others (exit 2), completions offer them. */
  choices?: readonly string[];
  default?: string;
  /** May be given several times; the values arrive as a list. */
  repeatable?: boolean;
  required?: boolean;
}

export interface ArgumentSpec {
  /** '<id>', '[prompt]' or '<ids...>'. */
  name: string;
  description: string;
  /** Fixed values: commander refuses others (exit 2), completions offer them. */
  choices?: readonly string[];
}

/** The data of a command: what help, completions and commander need. */
export interface CommandInfo {
  name: string;
  summary: string;
  args?: ArgumentSpec[];
  options?: OptionSpec[];
  examples: string[];
  /** Extra help text printed before the examples. */
  notes?: string;
  /** What it can end in, each code in its words; without it, what a command that talks to the service can (SERVICE_EXITS). */
  exitCodes?: ExitCodes;
}

export interface CommandSpec<Options> extends CommandInfo {
  /** Checks and converts what was typed; throws UsageError (exit 2) before any request. */
  parse(input: ParseInput): Options | Promise<Options>;
  /** Does the work; resolves to an exit code when it is not 0 (or throws an explained error). */
  run(options: Options, ctx: Context): Promise<number | void>;
}

/** A top-level noun (`tasks`) with its verbs, or a command of its own (`schedule-preview`). */
export interface NounInfo {
  name: string;
  summary: string;
  /** Help of a noun with verbs (a command of its own has them in its definition). */
  examples?: string[];
  notes?: string;
  /** The noun's own action (`schedule-preview EXPR`), loaded only when it runs. */
  own?: () => Promise<{ command: CommandSpec<unknown> }>;
  /** The verbs, each loaded only when it runs (or when the whole tree is built). */
  verbs?: Record<string, () => Promise<{ command: CommandSpec<unknown> }>>;
}

export function defineCommand<Options>(spec: CommandSpec<Options>): CommandSpec<Options> {
  return spec;
}

export function defineNoun(info: NounInfo): NounInfo {
  return info;
}

type RawValue = string | boolean | string[] | undefined;

/** Typed access to what commander parsed for one command. */
export class ParseInput {
  constructor(
    private readonly positional: Array<string | string[] | undefined>,
    private readonly raw: Record<string, unknown>,
    readonly globals: GlobalFlags,
    private readonly source: (name: string) => string | undefined,
    // Opened only when read: creating process.stdin costs a run ~2 ms, and most commands never read it.
    private readonly openStdin: () => NodeJS.ReadableStream,
  ) {}

  /** What commander parsed for `command` (the runner's input, and the argv-to-options tests'). */
  static of(command: Command, positional: unknown[], globals: GlobalFlags, openStdin: () => NodeJS.ReadableStream): ParseInput {
    return new ParseInput(positional as Array<string | string[] | undefined>, command.opts(), globals, (name) => command.getOptionValueSource(name), openStdin);
  }

  /** For `-` arguments and files given as `-`: parse may read stdin. */
  get stdin(): NodeJS.ReadableStream {
    return this.openStdin();
  }

  /** A positional argument (undefined when optional and missing). */
  arg(index: number): string | undefined {
    const value = this.positional[index];
    return Array.isArray(value) ? value[0] : value;
  }

  /** A variadic positional argument (`<ids...>`). */
  args(index: number): string[] {
    const value = this.positional[index];
    return Array.isArray(value) ? value : value === undefined ? [] : [value];
  }

  /** A flag that takes a value. */
  string(name: string): string | undefined {
    const value = this.value(name);
    if (value === undefined || typeof value === 'boolean') return undefined;
    return Array.isArray(value) ? value[value.length - 1] : value;
  }

  /** A boolean switch (`--follow`); false when absent. */
  flag(name: string): boolean {
    return this.value(name) === true;
  }

  /** A repeatable flag's values, in order. */
  list(name: string): string[] {
    const value = this.value(name);
    return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  }

  /** The raw value: for `--x <v>` with `--no-x`, a string, false, or undefined. */
  value(name: string): RawValue {
    const value = this.raw[name];
    if (value === undefined || typeof value === 'string' || typeof value === 'boolean') return value;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    throw new UsageError(`unexpected value for --${name}`);
  }

  /** Whether the user typed the option (as opposed to its default). */
  given(name: string): boolean {
    return this.raw[name] !== undefined && this.source(name) !== 'default';
  }
}
