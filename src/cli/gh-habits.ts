import type { Command } from 'commander';
import { LIMITS } from '../contract/validate.js';

// What gh users type that means something else here, or nothing: the error stays commander's, the
// hint says what agentctl calls it. Only for usage errors, so it costs nothing on a good run.

/** The words typed (the root program's raw argv), as commander kept them. */
function typed(command: Command): string[] {
  let root = command;
  while (root.parent) root = root.parent;
  return (root as Command & { rawArgs?: string[] }).rawArgs ?? [];
}

/** A hint for gh's `--limit N`/`-L N` or `-q FILTER`, or undefined. */
export function ghHabitHint(message: string, command: Command): string | undefined {
  const option = /^unknown option '(--limit|-L)(=[^']*)?'/.exec(message)?.[1];
  if (option !== undefined && command.options.some((o) => o.long === '--page-size')) {
    return `gh's ${option} is not an option here: --page-size N reads one page of N items (1..${LIMITS.pageSize}), --all every page`;
  }
  const args = typed(command);
  const q = args.indexOf('-q');
  const filter = q === -1 ? undefined : args[q + 1];
  if (filter !== undefined && /^[.[{]/.test(filter)) {
    return `-q is --quiet here; gh's -q is --jq: --jq '${filter.replace(/'/g, `'\\''`)}'`;
  }
  return undefined;
}

/**
 * An unknown verb, with the suggestion worded for agentctl: a verb it starts (`tasks del`: delete)
 * before commander's nearest spelling, and never `help` (commander offers it for anything short).
 */
export function unknownCommandMessage(message: string, command: Command): string | undefined {
  const word = /^unknown command '([^']*)'/.exec(message)?.[1];
  if (word === undefined) return undefined;
  const names = command.commands.map((sub) => sub.name()).filter((name) => name !== 'help');
  const starts = word.length >= 2 ? names.filter((name) => name.startsWith(word)) : [];
  const nearest = /\(Did you mean (\S+)\?\)/.exec(message)?.[1];
  const suggestion = starts.length === 1 ? starts[0] : nearest !== undefined && nearest !== 'help' ? nearest : undefined;
  return `unknown command '${word}'${suggestion === undefined ? '' : `\n(Did you mean ${suggestion}?)`}`;
}
