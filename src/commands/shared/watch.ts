// `--watch [SEC]` on a read command: fetch, show, sleep, again, until Ctrl-C (exit 0). On a terminal
// the screen is redrawn in place; otherwise (piped, or --json/--jsonl) each refresh is one compact
// JSON document on its own line, so `| jq -c` or a line reader takes them one at a time.
import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import { parseSecondsFlag } from '../../contract/validate.js';
import { isTransient } from '../../api/task-poller.js';

export const WATCH_OPTION: OptionSpec = {
  flags: '--watch [sec]',
  description: 'refresh every SEC seconds (default 2) until Ctrl-C: redrawn in place on a terminal, one JSON document per refresh when piped',
};

/** undefined without --watch; the refresh interval in ms with it. */
export function parseWatch(value: string | boolean | string[] | undefined): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return 2000;
  return parseSecondsFlag(String(value), '--watch', 0.1) * 1000;
}

export async function watch<T>(ctx: Context, intervalMs: number, fetch: () => Promise<T>, show: (data: T) => void): Promise<number> {
  ctx.handlesInterrupt = true; // Ctrl-C is how a watch ends: exit 0
  const screen = ctx.terminal.stdoutIsTTY && !ctx.out.machine;
  while (!ctx.signal.aborted) {
    let data: T;
    try {
      data = await fetch();
    } catch (error) {
      if (ctx.signal.aborted) break;
      if (!isTransient(error)) throw error;
      ctx.out.warn(`${(error as Error).message}; trying again in ${intervalMs / 1000}s`);
      if (!(await pause(ctx, intervalMs))) break;
      continue;
    }
    if (screen) {
      ctx.io.stdout.write('\x1b[H\x1b[2J'); // home, clear: redraw in place
      show(data);
      ctx.out.info(ctx.out.chalk.dim(`Every ${intervalMs / 1000}s, updated ${new Date(ctx.clock.now()).toISOString()}; Ctrl-C stops.`));
    } else {
      ctx.io.stdout.write(`${JSON.stringify(data)}\n`);
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
