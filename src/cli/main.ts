// The runner: `main(argv, io)` resolves to the exit code. `--version` and piped `--help` answer
// before commander or any command is loaded; everything else loads the command tree, whose
// actions load their own modules on demand.
import { cachedHelp } from './help-cache.js';
import type { IO } from './io.js';
import { VERSION } from '../contract/version.js';

export type { IO } from './io.js';
export { systemClock } from '../contract/clock.js';

export async function main(argv: string[], io: IO): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // Piped `--help` is served from pages rendered at build time (the same text commander prints).
  const help = cachedHelp(argv, io);
  if (help !== undefined) {
    io.stdout.write(help);
    return 0;
  }
  // `--jsonl --jq` runs jq on a worker thread, started first (jq-ahead.ts). Looked up only for
  // --jsonl: this file stays small enough to compile without the code cache (--version, --help).
  const jq = argv.includes('--jsonl') ? await (await import('./jq-ahead.js')).jqThreadAhead(argv) : undefined;
  const { run } = await import('./run.js');
  return run(argv, io, jq);
}
