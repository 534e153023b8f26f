// The runner: `main(argv, io)` resolves to the exit code. `--version` and piped `--help` answer
// before commander or any command is loaded; everything else loads the command tree, whose
// actions load their own modules on demand.
import { cachedHelp } from './help-cache.js';
import type { IO } from './io.js';
import type { JqWorker } from '../output/jq-thread.js';
import { VERSION } from '../contract/version.js';
import { plainPath } from '../output/jq-path.js';

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
  // `--jsonl --jq` runs jq on a worker thread: started first (its module is small), it boots and
  // loads jq while the command's code loads and the command line and the config are read, instead
  // of after them (docs/performance.md, "--jq over a stream").
  const jq = streamsThroughJq(argv) ? await startJqThread() : undefined;
  const { run } = await import('./run.js');
  return run(argv, io, jq);
}

/**
 * --jsonl and a --jq that is not a plain path (answered without jq: jq-path.ts) before any `--`
 * (a guess from the words alone: a thread not used is ended).
 */
function streamsThroughJq(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  if (!words.includes('--jsonl')) return false;
  const at = words.findIndex((word) => word === '--jq' || word.startsWith('--jq='));
  if (at === -1) return false;
  const expression = words[at] === '--jq' ? words[at + 1] : words[at]!.slice('--jq='.length);
  return expression === undefined || plainPath(expression) === undefined;
}

/** jq's thread, or none when it cannot start now: the stream then starts its own, and reports why it cannot. */
async function startJqThread(): Promise<JqWorker | undefined> {
  try {
    return new (await import('../output/jq-thread.js')).JqWorker();
  } catch {
    return undefined;
  }
}
