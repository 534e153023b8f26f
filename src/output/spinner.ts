import type { Clock } from '../contract/clock.js';

/** A spinner on stderr for people at a terminal; a silent stand-in everywhere else. */
export interface Spinner {
  text(message: string): void;
  stop(): void;
}

const silent: Spinner = { text: () => undefined, stop: () => undefined };

/** How often a terminal without a width is told that the wait goes on. */
export const PROGRESS_LINE_EVERY_MS = 15_000;

/**
 * A terminal that reports no width (0 columns, as some pseudo-terminals do) cannot host a spinner:
 * ora divides by the width to count the lines it must clear, and loops forever on 0.
 */
export function terminalHasWidth(stream: { columns?: number }): boolean {
  return typeof stream.columns === 'number' && stream.columns > 0;
}

export async function startSpinner(
  message: string,
  enabled: boolean,
  stream: { columns?: number; write(text: string): unknown },
  clock?: Clock,
): Promise<Spinner> {
  if (!enabled) return silent;
  if (!terminalHasWidth(stream)) return clock ? progressLines(message, stream, clock) : silent;
  const { default: ora } = await import('ora');
  // discardStdin would put the terminal in raw mode and swallow Ctrl-C; keep the default handling.
  const spinner = ora({ text: message, stream: stream as NodeJS.WriteStream, discardStdin: false }).start();
  return {
    text: (next) => {
      spinner.text = next;
    },
    stop: () => {
      spinner.stop();
    },
  };
}

/** Where a spinner cannot run: a plain "still running (2m10s)" line every so often instead. */
function progressLines(message: string, stream: { write(text: string): unknown }, clock: Clock): Spinner {
  const started = clock.now();
  const stop = new AbortController();
  let current = message;
  void (async () => {
    for (;;) {
      try {
        await clock.sleep(PROGRESS_LINE_EVERY_MS, stop.signal);
      } catch {
        return; // stopped
      }
      const label = current.replace(/\s*\(\d+s\)$/, '');
      stream.write(`${label}: still running (${formatElapsed(clock.now() - started)})\n`);
    }
  })();
  return {
    text: (next) => {
      current = next;
    },
    stop: () => stop.abort(),
  };
}

/** 2m10s, 45s, 1h02m. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}
