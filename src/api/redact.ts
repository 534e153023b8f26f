/**
 * Scrubs known secret strings (the API key, task secret values) out of anything written to the
 * terminal: verbose traces and error messages that might echo a request back.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; they are also not worth protecting this way.
    if (value && value.length >= 4) this.secrets.add(value);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('***');
    return out;
  }
}

/** A copy of a request body with every secret value replaced, for traces. */
export function redactBody(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  if (!record.secrets || typeof record.secrets !== 'object') return body;
  const secrets: Record<string, Record<string, string>> = {};
  for (const [domain, pairs] of Object.entries(record.secrets as Record<string, unknown>)) {
    secrets[domain] = Object.fromEntries(Object.keys((pairs ?? {}) as object).map((key) => [key, '***']));
  }
  return { ...record, secrets };
}
