/** Cell text for humans and for tab-separated output. */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value as one line of text: tabs and newlines folded so rows stay rows. */
export function plainCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
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
