// Entry point. `--version` and piped `--help` answer before commander or any command is loaded;
// everything else loads the command tree, whose actions load their own modules on demand.
import { writeStdout } from './direct-out.js';
import { cachedHelp } from './help-cache.js';

declare const AGENTCTL_VERSION: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  writeStdout(`${typeof AGENTCTL_VERSION === 'string' ? AGENTCTL_VERSION : '0.0.0-dev'}\n`);
} else {
  // Piped `--help` is served from pages rendered at build time (the same text commander prints).
  const help = cachedHelp(argv);
  if (help !== undefined) writeStdout(help);
  else {
    const { run } = await import('./run.js');
    await run(argv);
  }
}
