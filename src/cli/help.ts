import type { Command } from 'commander';
import { EXIT_CODE_MEANINGS } from '../errors.js';
import { termLine, wrapExample } from './help-layout.js';
import { SERVICE_EXITS, exitCodeLines, type ExitCodeLine, type ExitCodes } from './exit-codes.js';

/** The width a command's help is shown at: the terminal's, 80 into a pipe. */
function helpWidth(command: Command, error: boolean): number {
  const output = command.configureOutput() as { getOutHelpWidth?: () => number | undefined; getErrHelpWidth?: () => number | undefined };
  return (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) || 80;
}

/** Adds an "Examples:" section to a command's help (wrapped to its width, still pasteable); every command has at least one. */
export function examples(command: Command, lines: string[]): Command {
  if (lines.length > 0) command.addHelpText('after', ({ error }) => `\nExamples:\n${lines.map((line) => wrapExample(line, helpWidth(command, error))).join('\n')}`);
  (command as Command & { examples?: string[] }).examples = lines;
  return command;
}

/** The examples recorded on a command (for the help test and generated docs). */
export function examplesOf(command: Command): string[] {
  return (command as Command & { examples?: string[] }).examples ?? [];
}

/** Adds free text after a command's options (before its examples), kept for the generated reference. */
export function notes(command: Command, text: string | undefined): Command {
  if (!text) return command;
  // Reflowed to the width commander wraps the rest of the page to (the terminal's; 80 into a pipe).
  command.addHelpText('after', ({ error }) => `\n${reflow(text, helpWidth(command, error))}`);
  (command as Command & { notes?: string }).notes = text;
  return command;
}

/**
 * Notes written as short source lines, rewrapped to `width`: a line continues the one before unless
 * it is blank, indented, a list item, a "Label: " heading, or follows a line ending in ":".
 */
export function reflow(text: string, width: number): string {
  const logical: string[] = [];
  for (const line of text.split('\n')) {
    const previous = logical[logical.length - 1];
    const starts = previous === undefined || previous === '' || line === '' || /^(\s|[-*•] |[A-Z][\w -]{0,30}: )/.test(line) || previous.endsWith(':');
    if (starts) logical.push(line);
    else logical[logical.length - 1] = `${previous} ${line.trim()}`;
  }
  return logical.map((line) => wrapLine(line, Math.max(20, width - 1))).join('\n');
}

/** One logical line wrapped at spaces; continuation lines keep its indent (a list item's, past its marker). */
function wrapLine(line: string, width: number): string {
  const indent = /^(\s*(?:[-*•] )?)/.exec(line)?.[1]?.replace(/\S/g, ' ') ?? '';
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width && current.trim() !== '') {
      out.push(current);
      current = indent + word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  out.push(current);
  return out.join('\n');
}

/** The notes recorded on a command (for the generated reference). */
export function notesOf(command: Command): string | undefined {
  return (command as Command & { notes?: string }).notes;
}

/** Records the exit codes a command declares (commands that declare none end as SERVICE_EXITS says). */
export function exitCodes(command: Command, codes: ExitCodes | undefined): Command {
  if (codes) (command as Command & { exitCodes?: ExitCodes }).exitCodes = codes;
  return command;
}

/** The exit codes of a command path ('' is the whole program), each with its meaning there. */
export function exitCodesFor(path: string, command?: Command): ExitCodeLine[] {
  if (path === '') return exitCodeLines(Object.fromEntries(Object.keys(EXIT_CODE_MEANINGS).map((code) => [code, ''])));
  const own = (command as (Command & { exitCodes?: ExitCodes }) | undefined)?.exitCodes;
  if (command && command.commands.length > 0 && own === undefined) {
    // A noun: what its verbs can end in, in the usual words.
    const union = command.commands.flatMap((verb) => exitCodesFor(`${path} ${verb.name()}`, verb).map((line) => [line.code, '']));
    return exitCodeLines(Object.fromEntries(union) as ExitCodes);
  }
  return exitCodeLines(own ?? SERVICE_EXITS);
}

/** The "Exit codes:" section of one command's help, wrapped to `width`. */
export function exitCodesText(lines: readonly ExitCodeLine[], width: number): string {
  return `\nExit codes:\n${lines.flatMap(({ code, meaning }) => termLine(`  ${code}`, 7, meaning, width)).join('\n')}`;
}

/** Adds its exit codes to the help of every command in the tree (the root lists them all). */
export function addExitCodes(program: Command): void {
  const visit = (command: Command, path: string[]): void => {
    const lines = exitCodesFor(path.join(' '), command);
    command.addHelpText('after', ({ error }) => exitCodesText(lines, helpWidth(command, error)));
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
}
