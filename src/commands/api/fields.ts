// The request parts of `agentctl api` that gh users know from `gh api`: -f/-F fields, -H headers.
import { readTextInput } from '../../cli/input.js';
import { UsageError } from '../../errors.js';

/** Headers agentctl sets itself: the key has its own flags, the rest follow from the body. */
const OWN_HEADERS = new Set(['x-api-key', 'content-type', 'content-length', 'host', 'transfer-encoding']);

function splitField(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} "${text}" is not KEY=VALUE`, `e.g. ${flag} name=scraper`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** A -F value as gh reads it: true, false, null and numbers typed; @FILE (or @-) the file's text. */
async function typedValue(value: string, stdin: NodeJS.ReadableStream): Promise<unknown> {
  if (value === 'true' || value === 'false') return value === 'true';
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value))) return Number(value);
  if (value.startsWith('@')) return readTextInput(value.slice(1), '-F', stdin);
  return value;
}

/** -f KEY=VALUE (strings) and -F KEY=VALUE (typed), in the order given on the line. */
export async function readFields(raw: string[], typed: string[], stdin: NodeJS.ReadableStream): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for (const text of raw) {
    const [key, value] = splitField(text, '-f');
    fields[key] = value;
  }
  for (const text of typed) {
    const [key, value] = splitField(text, '-F');
    fields[key] = await typedValue(value, stdin);
  }
  return fields;
}

/** -H "Name: value" lines as a header object; agentctl's own headers are refused with the flag to use. */
export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) throw new UsageError(`-H "${line}" is not a header`, 'write it as -H "Name: value"');
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`-H ${name}: the value has a control character (a line break?)`);
    if (name === 'x-api-key') throw new UsageError('-H cannot set the API key', 'use --api-key-file PATH, AGENTCTL_API_KEY or a profile (agentctl auth login)');
    if (OWN_HEADERS.has(name)) throw new UsageError(`-H cannot set ${name}: agentctl sets it from the request`);
    headers[name] = value;
  }
  return headers;
}
