import { Chalk, type ChalkInstance } from 'chalk';

export function makeChalk(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
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
