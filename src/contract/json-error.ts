// Why a JSON text does not parse, and where, without quoting the text. V8's own messages quote the
// text around a bad token ("Unexpected token 's', "sk-live-01"... is not valid JSON"), and the text
// may be a secrets file or a config file holding an API key: the position is enough to fix it.

/** "Expected ':' after property name (line 3, column 7)"; the text itself never appears. */
export function describeJsonError(text: string, error: unknown): string {
  const { reason, index } = jsonErrorAt(text, error);
  return index === undefined ? reason : `${reason} (${lineAndColumn(text, index)})`;
}

/** Why the text does not parse (never quoting it) and the index of the fault, where there is one. */
export function jsonErrorAt(text: string, error: unknown): { reason: string; index?: number } {
  const message = String((error as Error)?.message ?? error);
  if (/^Unexpected end of JSON input/.test(message)) return { reason: text.trim() === '' ? 'it is empty' : 'it ends too early' };
  const positioned = /^(.*?)(?: in JSON)? at position (\d+)/.exec(message);
  if (positioned && !/^Unexpected token/.test(message)) return { reason: positioned[1] as string, index: Number(positioned[2]) };
  return { reason: 'unexpected character', index: firstBadIndex(text) };
}

function lineAndColumn(text: string, index: number): string {
  const before = text.slice(0, index).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/**
 * Where V8 names no position ("Unexpected token"), the first character that no valid JSON text can
 * continue with: a prefix up to it reads as unfinished JSON, a prefix that includes it as an error
 * before its end. Binary search over prefixes, on the error path only.
 */
function firstBadIndex(text: string): number {
  const errorBeforeEnd = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      const message = String((error as Error).message);
      if (/^Unexpected end of JSON input/.test(message)) return false;
      const position = /at position (\d+)/.exec(message);
      return position === null || Number(position[1]) < length;
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (errorBeforeEnd(middle + 1)) high = middle;
    else low = middle + 1;
  }
  return low;
}
