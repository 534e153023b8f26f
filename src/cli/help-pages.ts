import type { Command } from 'commander';
import { buildProgram } from './program.js';
import { referencePages } from './reference.js';

export { commandManifest } from './program.js';

/**
 * Every command's `--help` exactly as commander prints it into a pipe (80 columns, no colour), keyed
 * by the command path ('' for the root, 'tasks list', ...). The build stores these in
 * dist/help/ so that piped `--help` answers without loading commander at all.
 */
export async function renderHelpPages(): Promise<Record<string, string>> {
  const pages: Record<string, string> = {};
  const visit = (command: Command, path: string[]): void => {
    let text = '';
    command.configureOutput({ writeOut: (chunk) => (text += chunk), getOutHelpWidth: () => 80, getOutHasColors: () => false });
    command.outputHelp();
    pages[path.join(' ')] = text;
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(await buildProgram([]), []);
  return pages;
}

/** The command reference and man pages, by their paths in the repository (`npm run docs` writes them). */
export async function renderReference(version: string): Promise<Record<string, string>> {
  return referencePages(await buildProgram([]), version);
}
