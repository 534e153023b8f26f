/** A spinner on stderr for people at a terminal; a silent stand-in everywhere else. */
export interface Spinner {
  text(message: string): void;
  stop(): void;
}

const silent: Spinner = { text: () => undefined, stop: () => undefined };

/**
 * A terminal that reports no width (0 columns, as some pseudo-terminals do) cannot host a spinner:
 * ora divides by the width to count the lines it must clear, and loops forever on 0.
 */
export function terminalHasWidth(stream: { columns?: number }): boolean {
  return typeof stream.columns === 'number' && stream.columns > 0;
}

export async function startSpinner(message: string, enabled: boolean, stream: { columns?: number }): Promise<Spinner> {
  if (!enabled || !terminalHasWidth(stream)) return silent;
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
