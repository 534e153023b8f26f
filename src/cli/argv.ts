import { UsageError } from '../errors.js';

/** Options that take two words (`--secret DOMAIN KEY=VALUE`); commander takes one, so they are joined. */
export const TWO_WORD_OPTIONS = ['--secret', '--secret-env'];
export const TWO_WORD_SEPARATOR = '\n';

/**
 * Rewrites `--secret DOMAIN KEY=VALUE` into `--secret "DOMAIN\nKEY=VALUE"` before commander parses,
 * leaving everything after `--` alone.
 */
export function joinTwoWordOptions(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (TWO_WORD_OPTIONS.includes(arg)) {
      const first = argv[i + 1];
      const second = argv[i + 2];
      if (first === undefined || second === undefined || first.startsWith('--') || second.startsWith('--')) {
        throw new UsageError(`${arg} needs two values: DOMAIN KEY=${arg === '--secret-env' ? 'ENVVAR' : 'VALUE'}`);
      }
      out.push(arg, `${first}${TWO_WORD_SEPARATOR}${second}`);
      i += 2;
      continue;
    }
    out.push(arg);
  }
  return out;
}

export function splitTwoWords(value: string): [string, string] {
  const index = value.indexOf(TWO_WORD_SEPARATOR);
  return [value.slice(0, index), value.slice(index + 1)];
}
