import { CommanderError } from 'commander';
import { joinTwoWordOptions } from './argv.js';
import { directHelpOutput, writeStdout } from './direct-out.js';
import { ExitCode } from '../errors.js';
import { activeContext } from './lazy.js';
import { buildProgram } from './program.js';
import { reportError } from './report.js';

/** Parses argv, runs the command, and turns every failure into a message and an exit code. */
export async function run(argv: string[]): Promise<void> {
  process.on('SIGINT', () => {
    if (activeContext) activeContext.interrupt();
    process.exit(ExitCode.interrupted);
  });

  try {
    const program = buildProgram(argv);
    directHelpOutput(program);
    if (argv.length === 0) {
      // `agentctl` alone: the short overview grouped by noun, on stdout, as a successful answer.
      const { overview } = await import('./overview.js');
      writeStdout(overview(program, process.stdout.isTTY ? process.stdout.columns : undefined));
      return;
    }
    await program.parseAsync(joinTwoWordOptions(argv), { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed help, the version, or the usage error.
      process.exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      return;
    }
    process.exitCode = reportError(error, activeContext?.redactor);
  }
}
