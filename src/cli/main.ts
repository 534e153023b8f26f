// Entry point. `--version` answers before anything else is loaded; everything else loads the
// command tree, whose actions load their own modules on demand.
import { VERSION } from './version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { run } = await import('./run.js');
  await run(argv);
}
