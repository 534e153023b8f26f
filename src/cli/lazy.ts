import type { Command } from 'commander';
import type { Context } from './context.js';
import type { CommandSpec } from './define.js';
import type { Execute } from './program.js';

/** The old shape of a command's implementation (positional arguments and commander's options, untyped). */
export type CommandRun = (ctx: Context, args: unknown[], options: Record<string, unknown>) => Promise<number | void>;

/** Set by the runner for the program it builds, so the actions of not yet converted nouns can run. */
export let legacyExecute: Execute | undefined;
export function setLegacyExecute(execute: Execute | undefined): void {
  legacyExecute = execute;
}

/**
 * An action for a command still defined in its noun's index.ts: loads the module only when the
 * command runs and adapts `run(ctx, args, options)` to the runner. (New commands use defineCommand.)
 */
export function lazy(load: () => Promise<{ run: CommandRun }>) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    if (!legacyExecute) throw new Error('this program was built for help only');
    const spec = async (): Promise<CommandSpec<unknown>> => {
      const { run } = await load();
      return {
        name: command.name(),
        summary: command.description(),
        examples: [],
        parse: () => undefined,
        run: (_options, ctx) => run(ctx, params.slice(0, -2), command.opts()),
      };
    };
    await legacyExecute(spec, command, params.slice(0, -2));
  };
}
