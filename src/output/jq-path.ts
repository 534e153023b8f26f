// The --jq expressions that only read a key, or a chain of keys (`.id`, `.agent.name`), answered
// without jq over a stream of documents: the most common filter, and jq-wasm's parse of each
// document (~17 us of CPU for a 650-byte task) made `--jsonl --jq .id` slower than piping the
// same lines into the system's jq. Only where the answer is certain to be jq's own output with -r
// (text, null, true, false or an integer, printed as jq prints them); anything else (an object, a
// fraction, a document jq would refuse to index) is jq's to answer, from that document on.

/** jq's words that `.word` might not read as a key (jq 1.7 reads some of them so, 1.6 none). */
const KEYWORDS = new Set(['def', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'label', 'import', 'include', 'and', 'or', 'not', '__loc__']);

/** The keys of a plain path expression (`.a.b` gives ['a', 'b']), or undefined for any other jq. */
export function plainPath(expression: string): string[] | undefined {
  if (!/^(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(expression)) return undefined;
  const keys = expression.slice(1).split('.');
  return keys.some((key) => KEYWORDS.has(key)) ? undefined : keys;
}

/**
 * What `jq -r` prints for `document` through the path (its line, without the newline), or
 * undefined where jq must answer: the value is an object, an array or a number that is not a safe
 * integer, or a step indexes something that is neither an object nor null (jq's error says what).
 */
export function pathText(keys: readonly string[], document: unknown): string | undefined {
  let value = document;
  for (const key of keys) {
    if (value === null) continue; // .a of null is null
    if (typeof value !== 'object' || Array.isArray(value)) return undefined;
    // Own keys only: `.constructor` or `.__proto__` of a record that has none is null, as in jq.
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : null;
  }
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}
