import { readBuildFile } from '../contract/build-files.js';
import type { IO } from './io.js';
import { terminalOf } from '../output/terminal.js';

/**
 * The pre-rendered `--help` page for argv, when one applies: `agentctl [command...] --help` into a
 * pipe, a file or /dev/null, without colour (terminal.ts decides). A terminal wraps help to its own width, so it always goes
 * through commander. Pages come from the build (dist/help/agentctl_tasks_create.txt, see help-pages.ts):
 * one small file per page, so that a page costs one read.
 */
export function cachedHelp(argv: string[], io: Pick<IO, 'env' | 'terminal'>): string | undefined {
  const last = argv[argv.length - 1];
  if (last !== '--help' && last !== '-h') return undefined;
  const words = argv.slice(0, -1);
  if (!words.every((word) => /^[a-z][a-z-]*$/.test(word))) return undefined;
  if (!terminalOf(io).plainHelp) return undefined;
  try {
    return readBuildFile(import.meta.dirname, `help/${['agentctl', ...words].join('_')}.txt`);
  } catch {
    return undefined; // no such page (an unknown command, or running from the sources): commander answers
  }
}
