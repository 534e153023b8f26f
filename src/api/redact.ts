/**
 * Scrubs known secret strings (the API key, task secret values) out of anything written to the
 * terminal: verbose traces and error messages that might echo a request back. A service echoes a
 * secret inside JSON, so each secret is also matched in the forms a JSON encoder or a URL gives it
 * (`"` as `\"`, `\` as `\\`, non-ASCII as `\u00e9`, `/` as `\/`, percent-encoding).
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  /** Every form to look for, longest first, so a form that contains another is replaced whole; made when first needed. */
  private forms: string[] | undefined = [];

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; they are also not worth protecting this way.
    if (!value || value.length < 4 || this.secrets.has(value)) return;
    this.secrets.add(value);
    this.forms = undefined; // most runs never redact anything: the forms cost start-up only when needed
  }

  /** Whether any known secret appears in `text`, in any of its forms. */
  appearsIn(text: string): boolean {
    this.forms ??= [...new Set([...this.secrets].flatMap(encodedForms))].sort((a, b) => b.length - a.length);
    return this.forms.some((form) => text.includes(form));
  }

  redact(text: string): string {
    this.forms ??= [...new Set([...this.secrets].flatMap(encodedForms))].sort((a, b) => b.length - a.length);
    let out = text;
    // Most texts hold no secret: looking costs nothing, splitting copies the text.
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join('***');
    return out;
  }

  /**
   * A copy of parsed JSON (a service's error body) with every secret taken out of its texts, keys
   * included. Walked without recursion: JSON.parse reads bodies thousands of levels deep. The body
   * itself is returned when no secret is known.
   */
  redactValue(value: unknown): unknown {
    if (this.secrets.size === 0) return value;
    return scrubStrings(value, (text) => this.redact(text));
  }
}

/** The ways a secret can appear in text that carries it: raw, JSON-escaped, URL-encoded. */
export function encodedForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const asciiJson = json.replace(/[\u0080-\uffff]/g, unicodeEscape);
  // Go's encoder also escapes <, > and &; some encoders escape /.
  const htmlSafe = asciiJson.replace(/[<>&]/g, unicodeEscape);
  const forms = [secret, json, asciiJson, htmlSafe, json.replaceAll('/', '\\/'), asciiJson.replaceAll('/', '\\/')];
  try {
    forms.push(encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2));
  } catch {
    // A lone surrogate cannot be percent-encoded, so it cannot appear that way either.
  }
  // Upper- and lower-case hex are both valid in \u escapes.
  forms.push(htmlSafe.replace(/\\u[0-9a-f]{4}/g, (escape) => `\\u${escape.slice(2).toUpperCase()}`));
  return [...new Set(forms)];
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A copy of a request body with every secret value replaced, for traces. */
export function redactBody(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  if (!record.secrets || typeof record.secrets !== 'object') return body;
  // fromEntries makes own properties: a domain named __proto__ is shown too.
  const secrets = Object.fromEntries(
    Object.entries(record.secrets as Record<string, unknown>).map(([domain, pairs]) => [domain, Object.fromEntries(Object.keys((pairs ?? {}) as object).map((key) => [key, '***']))]),
  );
  return { ...record, secrets };
}

/**
 * A copy of JSON with `change` applied to every string, keys included (an array's indexes are no
 * text); walked without recursion, as bodies may nest deep. defineProperty, not assignment: a key
 * "__proto__" stays a key, as JSON.parse made it.
 */
export function scrubStrings(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (typeof value !== 'object' || value === null) return value;
  const root: object = Array.isArray(value) ? [] : {};
  const pending: Array<[object, object]> = [[value, root]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [from, to] = next;
    for (const [key, item] of Object.entries(from)) {
      let copy = item;
      if (typeof item === 'string') copy = change(item);
      else if (typeof item === 'object' && item !== null) pending.push([item as object, (copy = Array.isArray(item) ? [] : {})]);
      Object.defineProperty(to, Array.isArray(from) ? key : change(key), { value: copy, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}
