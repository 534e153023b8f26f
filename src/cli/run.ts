import { CommanderError, type Command } from 'commander';
import { ExitCode } from '../errors.js';
import { joinTwoWordOptions } from './argv.js';
import { readPreferences } from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
import { Context, type GlobalFlags } from './context.js';
import { ParseInput } from './define.js';
import { HelpOutput } from './help-output.js';
import { terminalOf } from '../output/terminal.js';
import type { IO } from './io.js';
import type { JqWorker } from '../output/jq-thread.js';
import { buildProgram, resolveVerbAlias, withoutHelpForUnknownCommand, type Execute } from './program.js';
import { commanderErrorReport, reportError, writeReport } from './report.js';

/**
 * Parses argv, runs the command, and turns every outcome into an exit code: failures become a
 * message on stderr, Ctrl-C becomes 130 with the command's own word on how to resume. `jq` is jq's
 * thread for `--jsonl --jq`, started ahead by main(): ended here if the command did not use it.
 */
export async function run(argv: string[], io: IO, jq?: JqWorker): Promise<number> {
  let ctx: Context | undefined;
  let exitCode: number = ExitCode.ok;

  const execute: Execute = async (load, command, positional) => {
    const spec = await load();
    const flags = command.optsWithGlobals<GlobalFlags>();
    // One store for the run: the preferences read now and the settings read later share its one read of the file.
    let store: Promise<ConfigStore> | undefined;
    const openStore = () => (store ??= import('../config/store.js').then(({ ConfigStore }) => new ConfigStore(io.configDir)));
    ctx = new Context(flags, io, () => buildProgram([]), await readPreferences(flags, io.env, openStore), openStore);
    ctx.out.jqWorker = jq;
    const options = await spec.parse(ParseInput.of(command, positional, ctx.flags, () => io.stdin));
    await ctx.out.ready();
    let code: number | void;
    try {
      code = await spec.run(options, ctx);
    } finally {
      await ctx.out.flush(); // --jq output is written asynchronously, also before a failure's exit
    }
    if (typeof code === 'number') exitCode = code;
  };

  const help = new HelpOutput(io);
  const work = (async (): Promise<number> => {
    try {
      const program = await buildProgram(argv, execute);
      routeOutput(program, io, wantsJson(argv), help);
      if (argv.length === 0) {
        // `agentctl` alone: the short overview grouped by noun, on stdout, as a successful answer.
        const { overview } = await import('./overview.js');
        help.write(overview(program, terminalOf(io).helpWidth('stdout')));
        await help.end();
        return ExitCode.ok;
      }
      await program.parseAsync(joinTwoWordOptions(withoutHelpForUnknownCommand(program, resolveVerbAlias(program, argv))), { from: 'user' });
      await help.end();
      return exitCode;
    } catch (error) {
      if (error instanceof CommanderError) {
        // Commander has already printed help, the version, or the usage error.
        await help.end();
        return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      }
      // After Ctrl-C the aborted request's error is noise: the interrupt message has been printed.
      if (io.signal.aborted && !ctx?.handlesInterrupt) return ExitCode.interrupted;
      return reportError(error, ctx?.redactor, (text) => io.stderr.write(text), { json: ctx?.out.machine ?? wantsJson(argv) });
    } finally {
      await ctx?.close();
      jq?.release();
    }
  })();

  const interrupted = new Promise<'interrupted'>((resolve) => {
    if (io.signal.aborted) resolve('interrupted');
    else io.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  const first = await Promise.race([work, interrupted]);
  if (first !== 'interrupted') return first;
  // Listeners end themselves on Ctrl-C (and report what they got); everything else stops here.
  if (ctx?.handlesInterrupt) return work;
  io.stderr.write(`\n${ctx?.interruptMessage ?? 'Interrupted.'}\n`);
  void ctx?.close();
  return ExitCode.interrupted;
}

/** --json, --jsonl or --jq before any `--`: errors are then JSON too. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--json' || arg === '--jsonl' || arg === '--jq' || arg.startsWith('--jq='));
}

/**
 * Commander's help, version and errors go to the run's streams, wrapped and coloured for them. Its
 * usage errors also say how the command is used and where its help is (as JSON under --json).
 */
function routeOutput(command: Command, io: IO, json: boolean, help: HelpOutput): void {
  const terminal = terminalOf(io);
  command.configureOutput({
    writeOut: (text) => help.write(text),
    writeErr: (text) => io.stderr.write(text),
    // undefined (off a terminal) makes commander wrap at its default width, as it does by itself.
    getOutHelpWidth: () => terminal.helpWidth('stdout') as number,
    getErrHelpWidth: () => terminal.helpWidth('stderr') as number,
    getOutHasColors: () => terminal.colour('stdout'),
    getErrHasColors: () => terminal.colour('stderr'),
    outputError: (text, write) => writeReport(commanderErrorReport(text, command), write, { json }),
  });
  for (const sub of command.commands) routeOutput(sub, io, json, help);
}
