import { HttpError, parseJsonBody } from './http.js';

// Request bodies as DRF's default parsers read them: JSON, application/x-www-form-urlencoded and
// multipart/form-data; any other content type of a non-empty body is 415. A form is flat text, so
// each operation says how its serializer reads a field from it (DRF's `get_value` per field type):
// a scalar takes the last value, a boolean missing from a full (non-partial) form is false, a JSON
// field parses its text, a list repeats the key (or `key[0]`, `key[1]`...), a dict uses `key.sub`.

export type FormKind = 'text' | 'bool' | 'json' | 'list' | 'dict';

export interface FormField {
  kind: FormKind;
  /** null is a valid value: an empty text then reads as null (or '' when blank is allowed too). */
  nullable?: boolean;
  /** '' is a valid value. */
  blank?: boolean;
  /** Without it, an empty text reads as "not given" (unless nullable). */
  required?: boolean;
}

export type FormSpec = Record<string, FormField>;

/** A parsed body: JSON data as it is, or a form's values by key (in order, repeated keys kept). */
export type ParsedBody = { kind: 'json'; data: Record<string, unknown> } | { kind: 'form'; values: Map<string, string[]> };

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** Parses a body by its content type; an empty body is no data whatever the type (as in DRF). */
export function parseBody(text: string, contentType: string | undefined): ParsedBody {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (text === '') return media === FORM || media === MULTIPART ? { kind: 'form', values: new Map() } : { kind: 'json', data: {} };
  if (isJsonMedia(media)) return { kind: 'json', data: parseJsonBody(text) };
  if (media === FORM) return { kind: 'form', values: parseUrlEncoded(text) };
  if (media === MULTIPART) return { kind: 'form', values: parseMultipart(text, contentType ?? '') };
  throw new HttpError(415, { detail: `Unsupported media type "${contentType ?? ''}" in request.` });
}

/**
 * Whether DRF's JSONParser takes the body (negotiation.py select_parser, media_type_matches): its
 * application/json, or a wildcard covering it (`*` + `/*`, `application/*`); a `+json` type is not
 * (415 like any other).
 */
function isJsonMedia(media: string): boolean {
  const [main, sub] = media.split('/');
  return (main === 'application' || main === '*') && (sub === 'json' || sub === '*');
}

function parseUrlEncoded(text: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(text)) add(values, key, value);
  return values;
}

/** multipart/form-data: each part's name and text (a file part's content is its text). */
function parseMultipart(text: string, contentType: string): Map<string, string[]> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw new HttpError(400, { detail: 'Multipart form parse error - Invalid boundary in multipart: None' });
  const values = new Map<string, string[]>();
  const parts = text.split(`--${boundary[1] ?? boundary[2]}`);
  for (const part of parts.slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(part.slice(0, split));
    if (name) add(values, name[1] as string, part.slice(split + 4).replace(/\r\n$/, ''));
  }
  return values;
}

function add(values: Map<string, string[]>, key: string, value: string): void {
  const list = values.get(key);
  if (list) list.push(value);
  else values.set(key, [value]);
}

/**
 * The data a serializer sees: JSON as sent; a form read field by field through `spec` (fields it
 * does not name are dropped, as a serializer ignores them). `partial` is PATCH (a missing boolean
 * stays missing).
 */
export function bodyData(body: ParsedBody, spec: FormSpec, partial: boolean): Record<string, unknown> {
  if (body.kind === 'json') return body.data;
  const data: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(spec)) {
    const value = formValue(body.values, name, field, partial);
    if (value !== undefined) data[name] = value;
  }
  return data;
}

function formValue(values: Map<string, string[]>, name: string, field: FormField, partial: boolean): unknown {
  const given = values.get(name);
  switch (field.kind) {
    case 'bool':
      if (given === undefined) return partial ? undefined : false;
      return emptyText(given.at(-1) as string, field);
    case 'json': {
      if (given === undefined) return undefined;
      try {
        return JSON.parse(given.at(-1) as string) as unknown;
      } catch {
        throw new HttpError(400, { [name]: ['Value must be valid JSON.'] });
      }
    }
    case 'list': {
      if (given !== undefined && given.length > 0) return given;
      const indexed = [...values.entries()]
        .map(([key, list]) => [new RegExp(`^${escape(name)}\\[([0-9]+)\\]$`).exec(key)?.[1], list.at(-1)] as const)
        .filter((entry): entry is readonly [string, string] => entry[0] !== undefined)
        .sort((a, b) => Number(a[0]) - Number(b[0]));
      return indexed.length > 0 ? indexed.map((entry) => entry[1]) : undefined;
    }
    case 'dict': {
      const prefix = `${name}.`;
      const entries = [...values.entries()].filter(([key]) => key.startsWith(prefix) && key.length > prefix.length);
      return entries.length > 0 ? Object.fromEntries(entries.map(([key, list]) => [key.slice(prefix.length), list.at(-1)])) : undefined;
    }
    default:
      return given === undefined ? undefined : emptyText(given.at(-1) as string, field);
  }
}

/** An empty form text: null where null is allowed, '' where blank is, otherwise "not given" unless required. */
function emptyText(value: string, field: FormField): unknown {
  if (value !== '') return value;
  if (field.nullable) return field.blank ? '' : null;
  if (!field.required) return field.blank ? '' : undefined;
  return value;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
