// A frame of a live view (a --watch refresh) drawn again in place: the next frame moves the cursor
// back up over the rows the last one took and clears from there, so the screen keeps one frame
// and the terminal's scrollback keeps what was above it (clearing the whole screen pushed a copy
// of it into the scrollback on every refresh, in many terminals).

// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

/**
 * How many terminal rows `text` (ending in a newline) takes at this width: a line longer than the
 * width wraps onto more rows. After a resize, the rows of the last frame at the new width (terminals
 * that reflow their lines, most of them do).
 */
export function frameRows(text: string, width: number): number {
  const lines = text.replace(ESCAPES, '').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil([...line].length / Math.max(1, width))), 0);
}

/** What moves the cursor to the first row of a frame `rows` tall (drawn above it) and clears down. */
export function overFrame(rows: number): string {
  return `${rows > 0 ? `\x1b[${rows}A` : ''}\r\x1b[J`;
}
