// jq's thread for `--jsonl --jq`, started before the command's code loads: it boots and loads jq
// while the command line and the config are read, instead of after them (docs/performance.md,
// "--jq over a stream"). A key path needs no jq (jq-path.ts), so no thread.
import { plainPath } from '../output/jq-path.js';
import type { JqWorker } from '../output/jq-thread.js';

/** The thread, when the words (a guess: a thread not used is ended) show a stream jq must filter. */
export async function jqThreadAhead(argv: string[]): Promise<JqWorker | undefined> {
  return streamsThroughJq(argv) ? startJqThread() : undefined;
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
