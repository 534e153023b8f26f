import type { Command } from 'commander';
import type { Context, GlobalFlags } from './context.js';

/** A command's implementation: positional arguments and its own options, already parsed by commander. */
export type CommandRun = (ctx: Context, args: unknown[], options: Record<string, unknown>) => Promise<void>;

/**
 * An action that loads the command's module only when the command runs, so `--help` and
 * `--version` never pay for undici, zod or the emulator.
 */
export function lazy(load: () => Promise<{ run: CommandRun }>) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    const args = params.slice(0, -2);
    const options = command.opts();
    // `agentctl ... | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
    // (Set here, where a command really runs: help and --version write without process.stdout.)
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
    const { Context } = await import('./context.js');
    const ctx = new Context(command.optsWithGlobals() as GlobalFlags);
    activeContext = ctx;
    const { run } = await load();
    await run(ctx, args, options);
  };
}

/** The context of the running command, for Ctrl-C and error reporting. */
export let activeContext: Context | undefined;
