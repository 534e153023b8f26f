import type { Command } from 'commander';
import { examplesOf } from './help.js';

/**
 * What `agentctl` alone prints: one entry per noun (its summary, and the verbs of a noun with
 * subcommands), built from the command tree so new commands appear without editing this.
 * `width` (the terminal's) shortens long summaries; without it nothing is cut.
 */
export function overview(program: Command, width?: number): string {
  const name = program.name();
  const nouns = program.commands.filter((command) => !(command as Command & { _hidden?: boolean })._hidden);
  const column = Math.max(...nouns.map((command) => command.name().length)) + 4;
  const fit = (text: string): string => (width && text.length > width ? `${text.slice(0, Math.max(width - 1, 10))}…` : text);
  const lines = [`${name}: ${program.description()}`, '', `Usage: ${name} <command> [subcommand] [arguments] [options]`, '', 'Commands:'];
  for (const noun of nouns) {
    lines.push(fit(`  ${noun.name().padEnd(column)}${noun.summary() || noun.description().split('\n')[0]}`));
    const verbs = noun.commands.map((command) => command.name());
    if (verbs.length > 0) lines.push(fit(`  ${''.padEnd(column)}${verbs.join(' · ')}`));
  }
  const globals = program.options.map((option) => option.long ?? option.short).filter((flag) => flag !== '--version');
  lines.push('', `Global options (any position): ${globals.join(' ')}`);
  lines.push(`Details: ${name} <command> [subcommand] --help    All options: ${name} --help`);
  const examples = examplesOf(program);
  if (examples.length > 0) lines.push('', 'Examples:', ...examples.map((line) => `  ${line}`));
  return `${lines.join('\n')}\n`;
}
