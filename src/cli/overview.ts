import type { Command } from 'commander';
import { examplesOf } from './help.js';
import { termLine, wrapExample, wrapWords } from './help-layout.js';

/**
 * What `agentctl` alone prints: one entry per noun (its summary, and the verbs of a noun with
 * subcommands), built from the command tree so new commands appear without editing this.
 * `width` (the terminal's) wraps it, descriptions under their nouns when narrow; without it
 * (piped) nothing is wrapped or cut.
 */
export function overview(program: Command, width?: number): string {
  const name = program.name();
  const nouns = program.commands.filter((command) => !(command as Command & { _hidden?: boolean })._hidden);
  const column = Math.max(...nouns.map((command) => command.name().length)) + 4;
  const text = (line: string): string[] => (width === undefined ? [line] : wrapWords(line, width - 1));
  const lines = [...text(`${name}: ${program.description()}`), '', ...text(`Usage: ${name} <command> [subcommand] [arguments] [options]`), '', 'Commands:'];
  for (const noun of nouns) {
    lines.push(...termLine(`  ${noun.name()}`, column + 2, noun.summary() || (noun.description().split('\n')[0] as string), width));
    const verbs = noun.commands.map((command) => command.name());
    if (verbs.length > 0) lines.push(...termLine('', column + 2, verbs.map((verb, i) => (i < verbs.length - 1 ? `${verb} ·` : verb)), width).filter((line) => line.trim() !== ''));
  }
  const globals = program.options.map((option) => option.long ?? option.short).filter((flag) => flag !== '--version');
  lines.push('', ...text(`Global options (any position): ${globals.join(' ')}`));
  lines.push(...text(`Details: ${name} <command> [subcommand] --help    All options: ${name} --help`));
  const examples = examplesOf(program);
  if (examples.length > 0) lines.push('', 'Examples:', ...examples.map((line) => (width === undefined ? `  ${line}` : wrapExample(line, width))));
  return `${lines.join('\n')}\n`;
}
