// Entry point. `--version` answers before anything else is loaded (this file imports nothing, so
// the entry chunk is all that runs); everything else loads the command tree, whose actions load
// their own modules on demand.
declare const AGENTCTL_VERSION: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${typeof AGENTCTL_VERSION === 'string' ? AGENTCTL_VERSION : '0.0.0-dev'}\n`);
} else {
  const { run } = await import('./run.js');
  await run(argv);
}
