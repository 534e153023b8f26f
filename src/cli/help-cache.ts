import { readFileSync } from 'node:fs';
import type { IO } from './io.js';

/**
 * The pre-rendered `--help` page for argv, when one applies: `agentctl [command...] --help` into a
 * pipe, a file or /dev/null, with no colour forced. A terminal wraps help to its own width, so it always goes
 * through commander. Pages come from the build (dist/help-pages.json, see help-pages.ts).
 */
export function cachedHelp(argv: string[], io: Pick<IO, 'env' | 'terminal'>): string | undefined {
  const last = argv[argv.length - 1];
  if (last !== '--help' && last !== '-h') return undefined;
  const words = argv.slice(0, -1);
  if (!words.every((word) => /^[a-z][a-z-]*$/.test(word))) return undefined;
  if (io.env.FORCE_COLOR !== undefined || io.env.CLICOLOR_FORCE !== undefined || io.terminal.stdoutIsTTY) return undefined;
  try {
    const pages = JSON.parse(readFileSync(new URL('../help-pages.json', import.meta.url), 'utf8')) as Record<string, string>;
    return pages[words.join(' ')];
  } catch {
    return undefined; // no pages (running from the sources): commander renders the help
  }
}
