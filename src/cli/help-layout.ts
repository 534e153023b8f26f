import { Help, type Command } from 'commander';

// Help fits the width it is shown at, down to a phone's terminal: commander wraps a description
// only while 40 columns are left beside its term (below ~78 columns nothing was wrapped), and the
// examples and exit codes after the options are ours to wrap.

/** Fewer columns than this beside the terms, and each description goes on its own lines under its term. */
const NARROW = 30;
/** Where a description under its term starts. */
const UNDER = '      ';

/** Commander's help settings: wrap at any width; narrow, descriptions under their terms. */
export const HELP_LAYOUT: Partial<Help> = {
  showGlobalOptions: true,
  minWidthToWrap: 12,
  formatHelp(this: Help, command: Command, helper: Help): string {
    // The usage line, wrapped like the rest: continuations under its first word.
    const text = Help.prototype.formatHelp.call(this, command, helper);
    const width = this.helpWidth ?? 80;
    const end = text.indexOf('\n');
    if (end <= width) return text;
    return wrapWords(text.slice(0, end), width - 7).join('\n       ') + text.slice(end);
  },
  formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
    const width = this.helpWidth ?? 80;
    if (!description || width - termWidth - 4 >= NARROW) return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    return `  ${term}\n${UNDER}${helper.boxWrap(description, Math.max(width - UNDER.length, 12)).replace(/\n/g, `\n${UNDER}`)}`;
  },
};

/** A line's shell words (a quoted string is one), with its comment (`# ...`) apart. */
function shellWords(line: string): { words: string[]; comment?: string } {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '#' && word === '' && depth === 0) return { words, comment: line.slice(i) };
    else if (c === ' ') {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    word += c;
  }
  if (word !== '') words.push(word);
  return { words };
}

/**
 * An example wrapped to `width` so that it still pastes into a shell: breaks only between words
 * (never in quotes; in `$(...)` a ` \\` continues the line too), each broken line ending in ` \`, continuations indented. A comment
 * that does not fit goes on lines of its own after the command. A word longer than the line stays whole.
 */
export function wrapExample(line: string, width: number, indent = '  '): string {
  if (indent.length + line.length <= width) return indent + line;
  const { words, comment } = shellWords(line);
  const more = `${indent}    `;
  const lines: string[] = [];
  let current = indent;
  for (const word of words) {
    const fresh = current.trim() === '';
    if (!fresh && current.length + 1 + word.length + 2 > width) {
      lines.push(`${current} \\`);
      current = more + word;
    } else current = fresh ? current + word : `${current} ${word}`;
  }
  if (comment === undefined) return [...lines, current].join('\n');
  if (current.length + 1 + comment.length <= width) return [...lines, `${current} ${comment}`].join('\n');
  const text = comment.replace(/^#\s*/, '');
  return [...lines, current, ...wrapWords(text, width - more.length - 2).map((part) => `${more}# ${part}`)].join('\n');
}

/** Words of `text` (or the given words) packed into lines of at most `width` (a longer word on its own line). */
export function wrapWords(text: string | string[], width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of typeof text === 'string' ? text.split(/\s+/).filter(Boolean) : text) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '' || lines.length === 0) lines.push(current);
  return lines;
}

/** `term  description` with the description wrapped beside it, or under it when the width is narrow. */
export function termLine(term: string, column: number, description: string | string[], width: number | undefined): string[] {
  if (width === undefined) return [`${term.padEnd(column)}${typeof description === 'string' ? description : description.join(' ')}`];
  if (width - column >= NARROW && term.length <= column) return wrapWords(description, width - column).map((part, i) => `${i === 0 ? term.padEnd(column) : ''.padEnd(column)}${part}`);
  return [term, ...wrapWords(description, width - UNDER.length).map((part) => `${UNDER}${part}`)];
}
