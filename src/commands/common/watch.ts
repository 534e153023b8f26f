// `--watch [SEC]` on a read command: fetch, show, sleep, again, until Ctrl-C (exit 0). On a terminal
// the screen is redrawn in place; otherwise (piped, or --json/--jsonl) each refresh is one compact
// JSON document on its own line, so `| jq -c` or a line reader takes them one at a time.
import type { Context } from '../../cli/context.js';
import { isTransientError } from '../../api/errors.js';

export { WATCH_OPTION, parseWatch } from './watch-option.js';

export async function watch<T>(ctx: Context, intervalMs: number, fetch: () => Promise<T>, show: (data: T) => void): Promise<number> {
  ctx.handlesInterrupt = true; // Ctrl-C is how a watch ends: exit 0
  const screen = ctx.terminal.stdoutIsTTY && !ctx.out.machine;
  while (!ctx.signal.aborted) {
    let data: T;
    try {
      data = await fetch();
    } catch (error) {
      if (ctx.signal.aborted) break;
      if (!isTransientError(error)) throw error;
      ctx.out.warn(`${(error as Error).message}; trying again in ${intervalMs / 1000}s`);
      if (!(await pause(ctx, intervalMs))) break;
      continue;
    }
    if (screen) {
      ctx.io.stdout.write('\x1b[H\x1b[2J'); // home, clear: redraw in place
      show(data);
      ctx.out.info(ctx.out.chalk.dim(`Every ${intervalMs / 1000}s, updated ${new Date(ctx.clock.now()).toISOString()}; Ctrl-C stops.`));
    } else {
      ctx.out.jsonLine(data);
    }
    if (!(await pause(ctx, intervalMs))) break;
  }
  return 0;
}

/** Sleeps; false when Ctrl-C ended the sleep. */
async function pause(ctx: Context, ms: number): Promise<boolean> {
  try {
    await ctx.clock.sleep(ms, ctx.signal);
    return true;
  } catch {
    return false;
  }
}
