import { Chalk, type ChalkInstance } from 'chalk';

/**
 * Colour off (pipes, --json, NO_COLOR) paints nothing, as chalk does at level 0: every style,
 * chained or not, returns its text unchanged. Without chalk itself, whose set-up costs more than a
 * piped command can spare (the build loads it on first use).
 */
const plain: ChalkInstance = new Proxy((...text: unknown[]) => (text.length === 1 ? String(text[0]) : text.join(' ')), {
  get: (_target, key) => (key === 'level' ? 0 : plain),
}) as unknown as ChalkInstance;

export function makeChalk(enabled: boolean): ChalkInstance {
  return enabled ? new Chalk({ level: 1 }) : plain;
}

/** Task and agent states in colour; unknown values stay plain. */
export function colorStatus(chalk: ChalkInstance, status: string): string {
  switch (status) {
    case 'completed':
    case 'active':
    case 'activated':
      return chalk.green(status);
    case 'failed':
    case 'expired':
      return chalk.red(status);
    case 'cancelled':
    case 'paused':
    case 'deactivated':
      return chalk.yellow(status);
    case 'in_progress':
      return chalk.cyan(status);
    default:
      return chalk.dim(status);
  }
}
