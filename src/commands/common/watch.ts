// `--watch [SEC]` on a read command: fetch, show, sleep, again, until Ctrl-C (exit 0). On a terminal
// each refresh is drawn over the last one, in place, and again at once when the window is resized;
// otherwise (piped, or --json/--jsonl) each refresh is one compact JSON document on its own line,
// so `| jq -c` or a line reader takes them one at a time.
import type { Context } from '../../cli/context.js';
import { isTransientError } from '../../api/errors.js';
import { frameRows, overFrame } from '../../output/frame.js';

export { WATCH_OPTION, parseWatch } from './watch-option.js';

export async function watch<T>(ctx: Context, intervalMs: number, fetch: () => Promise<T>, show: (data: T) => void): Promise<number> {
  ctx.handlesInterrupt = true; // Ctrl-C is how a watch ends: exit 0
  const screen = ctx.terminal.stdoutIsTTY && !ctx.out.machine ? inPlace(ctx, intervalMs, show) : undefined;
  try {
    while (!ctx.signal.aborted) {
      let data: T;
      try {
        data = await fetch();
      } catch (error) {
        if (ctx.signal.aborted) break;
        if (!isTransientError(error)) throw error;
        ctx.out.warn(`${(error as Error).message}; trying again in ${intervalMs / 1000}s`);
        screen?.forget(); // the warning is below the frame: the next frame starts after it
        if (!(await pause(ctx, intervalMs))) break;
        continue;
      }
      if (screen) screen.draw(data);
      else ctx.out.jsonLine(data);
      if (!(await pause(ctx, intervalMs))) break;
    }
  } finally {
    screen?.stop();
  }
  return 0;
}

/** A terminal's frames: each drawn over the last, and the last drawn again when the window is resized. */
function inPlace<T>(ctx: Context, intervalMs: number, show: (data: T) => void) {
  const stdout = ctx.io.stdout;
  let last: { data: T; at: number; text: string } | undefined;
  const draw = (data: T, at = ctx.clock.now()) => {
    // The last frame's rows at today's width: after a resize, its lines have reflowed.
    if (last) stdout.write(overFrame(frameRows(last.text, ctx.out.settings.width)));
    const text = ctx.out.measure(() => {
      show(data);
      ctx.out.info(ctx.out.chalk.dim(`Every ${intervalMs / 1000}s, updated ${new Date(at).toISOString()}; Ctrl-C stops.`));
    });
    last = { data, at, text };
  };
  const resized = () => {
    if (last && !ctx.signal.aborted) draw(last.data, last.at); // what was fetched, at today's width
  };
  stdout.on?.('resize', resized);
  return {
    draw,
    forget: () => void (last = undefined),
    stop: () => void stdout.removeListener?.('resize', resized),
  };
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
