import type { Command } from 'commander';
import { EXIT_CODE_MEANINGS, type ExitCodeValue } from '../errors.js';

/** Adds an "Examples:" section to a command's help; every command has at least one. */
export function examples(command: Command, lines: string[]): Command {
  command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`);
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
  command.addHelpText('after', ({ error }) => {
    const output = command.configureOutput() as { getOutHelpWidth?: () => number | undefined; getErrHelpWidth?: () => number | undefined };
    const width = (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) || 80;
    return `\n${reflow(text, width)}`;
  });
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

/** A command that talks to the service can end in any of these. */
const SERVICE: ExitCodeValue[] = [0, 1, 2, 3, 4, 8, 130];
const WAITS: ExitCodeValue[] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 130];
const LOCAL: ExitCodeValue[] = [0, 2];

/** Commands whose exit codes differ from SERVICE's, by path. A new command that talks to the service needs nothing here. */
const EXIT_CODES: Record<string, ExitCodeValue[]> = {
  'tasks create': WAITS,
  'tasks wait': WAITS,
  'tasks result': [0, 1, 2, 3, 4, 5, 6, 8, 9, 130],
  'schedule-preview': LOCAL,
  completion: LOCAL,
  help: LOCAL,
  version: LOCAL,
  'config get': [0, 2, 4],
  'config set': LOCAL,
  'config unset': LOCAL,
  'config list': LOCAL,
  'config path': LOCAL,
  'auth logout': LOCAL,
  'auth token': [0, 2, 3],
  emulator: [0, 1, 2, 130],
  'webhook-listen': [0, 1, 2, 8, 130],
};

/** The exit codes of a command path ('' is the whole program). */
export function exitCodesFor(path: string, command?: Command): ExitCodeValue[] {
  if (path === '') return Object.keys(EXIT_CODE_MEANINGS).map(Number) as ExitCodeValue[];
  if (command && command.commands.length > 0 && EXIT_CODES[path] === undefined) {
    // A noun: what its verbs can end in.
    const union = new Set(command.commands.flatMap((verb) => exitCodesFor(`${path} ${verb.name()}`, verb)));
    return [...union].sort((a, b) => a - b);
  }
  return EXIT_CODES[path] ?? SERVICE;
}

/** The "Exit codes:" section of one command's help. */
export function exitCodesText(codes: readonly ExitCodeValue[]): string {
  return `\nExit codes:\n${codes.map((code) => `  ${String(code).padEnd(3)}  ${EXIT_CODE_MEANINGS[code].meaning}`).join('\n')}`;
}

/** Adds its exit codes to the help of every command in the tree (the root lists them all). */
export function addExitCodes(program: Command): void {
  const visit = (command: Command, path: string[]): void => {
    command.addHelpText('after', exitCodesText(exitCodesFor(path.join(' '), command)));
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
}
