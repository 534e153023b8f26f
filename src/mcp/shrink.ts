// An answer too large to return, made to fit: long strings cut short, then long lists cut to their
// first items, so the records' ids, statuses and counts still arrive (and still follow the tool's
// outputSchema: a cut string is a string, a cut list a list), with a note of what was cut.

/** Where long strings are cut, longest first; never below the length of an id, a date or a status. */
const STRING_LIMITS = [2_000, 500, 200];
/** How many items long lists keep, most first (with strings at the shortest limit). */
const ITEM_LIMITS = [50, 20, 10, 5, 1];

export interface Shrunk {
  data: Record<string, unknown>;
  /** What was cut, in words: "strings over 500 characters are cut short (they end in …)". */
  cut: string;
}

/** `data` cut to at most `max` characters of JSON, or undefined when no cut is enough. */
export function shrink(data: Record<string, unknown>, max: number): Shrunk | undefined {
  const fits = (value: unknown) => JSON.stringify(value).length <= max;
  const shortest = STRING_LIMITS.at(-1)!;
  // The most any cut takes off: when that is not enough (an object of 20,000 keys), none is.
  if (!fits(cutLists(cutStrings(data, shortest), ITEM_LIMITS.at(-1)!))) return undefined;
  for (const limit of STRING_LIMITS) {
    const cut = cutStrings(data, limit);
    if (fits(cut)) return { data: cut, cut: stringsNote(limit) };
  }
  const short = cutStrings(data, shortest);
  for (const items of ITEM_LIMITS) {
    const cut = cutLists(short, items);
    if (fits(cut)) return { data: cut, cut: `${stringsNote(shortest)}, and lists longer than ${items} keep their first ${items}` };
  }
  return undefined;
}

const stringsNote = (limit: number) => `strings over ${limit} characters are cut short (they end in "… [cut: N characters]")`;

function cutStrings<T>(value: T, limit: number): T {
  return map(value, (text) => (text.length > limit ? `${text.slice(0, limit)}… [cut: ${text.length} characters]` : text), Infinity);
}

const cutLists = <T>(value: T, items: number): T => map(value, (text) => text, items);

/** `value` with `text` applied to every string and every list cut to `items`. */
function map<T>(value: T, text: (text: string) => string, items: number): T {
  if (typeof value === 'string') return text(value) as T;
  if (Array.isArray(value)) return value.slice(0, items).map((item: unknown) => map(item, text, items)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, map(entry, text, items)])) as T;
  }
  return value;
}
