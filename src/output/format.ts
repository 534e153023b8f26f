import { ExitCode, ExitError } from '../errors.js';

/** Cell text for humans and for tab-separated output. */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value as one line of text: tabs and newlines folded so rows stay rows. */
export function plainCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? toJson(value) : String(value);
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** A value for a terminal table: timestamps shortened to minutes in UTC. */
export function humanCell(value: unknown): string {
  if (typeof value === 'string' && ISO_DATE.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return `${date.toISOString().slice(0, 16).replace('T', ' ')}Z`;
  }
  return plainCell(value);
}

export function shorten(text: string, max: number): string {
  if (max <= 1) return text.slice(0, Math.max(0, max));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Keeps only the named keys, in the order given (for --fields). */
export function pickFields(record: unknown, fields: string[] | undefined): unknown {
  if (!fields || typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  const source = record as Record<string, unknown>;
  return Object.fromEntries(fields.filter((field) => field in source).map((field) => [field, source[field]]));
}

/**
 * JSON text of what the service sent. Data nested thousands of levels deep (or too big for one
 * string) cannot be written: that is the service's answer at fault, so it is a service error (exit 1)
 * that says why, never a crash reported as agentctl's bug.
 */
export function toJson(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw unprintable(/call stack/i.test(error.message) ? 'it is nested too deeply (thousands of levels)' : `it is too large (${error.message})`, 'printed');
  }
}

/** The service's answer cannot be printed or filtered, and why. */
export function unprintable(why: string, what: 'printed' | 'filtered with --jq'): ExitError {
  return new ExitError(ExitCode.serviceError, `the service's answer cannot be ${what}: ${why}`, 'this is the service\'s data, not something to fix here: tell its operators (--verbose shows the start of the answer)');
}

/**
 * Text broken into lines of at most `width` characters at spaces (a word longer than a line is cut),
 * its own line breaks and blank lines kept: a reply or a charter shown whole on a terminal.
 */
export function wrapText(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').split('\n')) {
    let line = '';
    for (let word of paragraph.trimEnd().split(/ +/)) {
      if (line !== '' && line.length + 1 + word.length > max) {
        lines.push(line);
        line = '';
      }
      while (word.length > max) {
        if (line !== '') lines.push(line);
        lines.push(word.slice(0, max));
        word = word.slice(max);
        line = '';
      }
      line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines;
}
