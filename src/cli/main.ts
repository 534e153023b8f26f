// Entry point. `--version` answers before anything else is loaded (this file imports no chunk of
// its own, so the entry file is all that runs); everything else loads the command tree, whose
// actions load their own modules on demand.
import { writeSync } from 'node:fs';

declare const AGENTCTL_VERSION: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const text = `${typeof AGENTCTL_VERSION === 'string' ? AGENTCTL_VERSION : '0.0.0-dev'}\n`;
  // Straight to fd 1: creating process.stdout costs more than the rest of this run (see direct-out.ts).
  try {
    writeSync(1, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') process.stdout.write(text);
    else if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
} else {
  const { run } = await import('./run.js');
  await run(argv);
}
