// Text we did not write (a service's error detail, a task's result, a line read back from a report
// file) folded to one line before it is shown. A line break inside it would start a line of its own:
// in a CI log that line is read as a workflow command (`::add-mask::`, `::stop-commands::`, a fake
// `::error`), and in our own multi-line messages it would pass for one of our lines.

/** Every run of white space and line breaks (LF, CR, VT, FF, NEL, U+2028, U+2029) as one space; trimmed. */
export function oneLine(text: string): string {
  return text.replace(/[\s\u0085]+/g, ' ').trim();
}

// C0 controls and DEL (line breaks are folded first), and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** One line with no control character left: for text that no terminal will unescape (a CI annotation). */
export function strippedLine(text: string): string {
  return oneLine(text).replace(CONTROLS, '');
}

/** A surrogate not paired: JSON's `\ud800` makes one, UTF-8 cannot carry it, and the service refuses it. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first lone surrogate in a parsed JSON value's texts (keys included), as `U+D800`; undefined
 * when there is none. Walked without recursion: JSON.parse reads values thousands of levels deep.
 */
export function loneSurrogateIn(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      const found = LONE_SURROGATE.exec(next);
      if (found) return `U+${(found[0].codePointAt(0) as number).toString(16).toUpperCase()}`;
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) pending.push(key, item);
    }
  }
  return undefined;
}
