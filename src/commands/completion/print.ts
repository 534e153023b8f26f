import { UsageError } from '../../errors.js';
import type { CommandRun } from '../../cli/lazy.js';
import { buildProgram } from '../../cli/program.js';
import { completionScript } from '../../completion/index.js';
import type { Shell } from '../../completion/shells.js';

export const run: CommandRun = async (ctx, [shell]) => {
  // A shell script is not JSON: refuse rather than break the promise that --json prints only JSON.
  if (ctx.out.machine) throw new UsageError('completion prints a shell script; drop --json/--jsonl');
  // The whole tree: the program that runs this command was built with only the `completion` subtree.
  ctx.out.line(completionScript(shell as Shell, await buildProgram([])).replace(/\n$/, ''));
};
