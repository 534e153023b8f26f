/** A word for a command line printed for the user to run: as it is when a shell reads it so, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
