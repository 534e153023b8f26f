// Reading a cassette (src/api/cassette.ts writes them). A cassette is a file a user was handed, so
// every line is checked before anything of it is used: its method one of HTTP's, its path only
// ever a URL path below the base (no scheme, host, `..`, `//`, control or other odd characters),
// its query and headers plain strings. A line that is not so is refused with its number.
import { InputError } from '../errors.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
/** A URL path of the API: unreserved characters, sub-delimiters, `:`, `@`, `/` and percent escapes. */
const URL_PATH = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
const MAX_PATH = 2048;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** The service's answers nest a few levels; the comparison walks them recursively. */
const MAX_DEPTH = 256;

/** One exchange of a cassette, checked. */
export interface RecordedLine {
  /** Its line number in the file (1-based). */
  line: number;
  at: number;
  ms: number;
  method: string;
  base: string;
  path: string;
  query: Array<[string, string]>;
  contentType?: string;
  accept?: string;
  requestBody?: unknown;
  /** The recorded answer, or undefined when the request got none (`error`). */
  answer?: { status: number; body: unknown };
  error?: string;
}

/** Every exchange of a cassette's text; InputError (field `cassette`) naming the first line that is not one. */
export function readCassette(text: string, name: string): RecordedLine[] {
  const lines: RecordedLine[] = [];
  const rows = text.split('\n');
  rows.forEach((row, i) => {
    if (row.trim() === '') return;
    lines.push(checkLine(row, i + 1, name));
  });
  if (lines.length === 0) throw new InputError('cassette', `${name} holds no recorded request`);
  return lines;
}

function checkLine(row: string, line: number, name: string): RecordedLine {
  const refuse = (problem: string) => new InputError('cassette', `${name}, line ${line}: ${problem}`);
  let value: unknown;
  try {
    value = JSON.parse(row);
  } catch {
    throw refuse('not JSON (a cassette is one JSON object per line, as --record writes it)');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw refuse('not a JSON object');
  const entry = value as Record<string, unknown>;
  if (entry.agentctl !== 1) throw refuse('not a cassette line of this agentctl ("agentctl": 1)');
  const method = entry.method;
  if (typeof method !== 'string' || !METHODS.has(method)) throw refuse('"method" is not an HTTP method');
  const path = entry.path;
  if (typeof path !== 'string' || path.length > MAX_PATH || !URL_PATH.test(path) || path.includes('//') || path.split('/').some((part) => part === '..' || part === '.')) {
    throw refuse('"path" is not a URL path below the base URL');
  }
  const at = typeof entry.at === 'string' ? Date.parse(entry.at) : NaN;
  if (Number.isNaN(at)) throw refuse('"at" is not an ISO 8601 time');
  const ms = entry.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw refuse('"ms" is not a duration');
  if (typeof entry.base !== 'string') throw refuse('"base" is not the base URL');
  const recorded: RecordedLine = { line, at, ms, method, base: entry.base, path, query: checkQuery(entry.query, refuse), ...checkHeaders(entry.requestHeaders, refuse) };
  if (deeperThan(entry.requestBody, MAX_DEPTH) || deeperThan(entry.body, MAX_DEPTH)) throw refuse(`a body nests deeper than ${MAX_DEPTH} levels`);
  if (entry.requestBody !== undefined) recorded.requestBody = entry.requestBody;
  if (typeof entry.status === 'number' && Number.isInteger(entry.status) && entry.status >= 100 && entry.status <= 599) recorded.answer = { status: entry.status, body: entry.body };
  else if (typeof entry.error === 'string') recorded.error = entry.error;
  else throw refuse('neither a "status" nor an "error"');
  return recorded;
}

function checkQuery(query: unknown, refuse: (problem: string) => Error): Array<[string, string]> {
  if (query === undefined) return [];
  if (typeof query !== 'object' || query === null || Array.isArray(query)) throw refuse('"query" is not an object');
  const pairs = Object.entries(query);
  if (pairs.some(([, value]) => typeof value !== 'string')) throw refuse('"query" holds a value that is not a string');
  return pairs as Array<[string, string]>;
}

function checkHeaders(headers: unknown, refuse: (problem: string) => Error): { contentType?: string; accept?: string } {
  if (headers === undefined) return {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) throw refuse('"requestHeaders" is not an object');
  const { 'content-type': contentType, accept } = headers as Record<string, unknown>;
  const out: { contentType?: string; accept?: string } = {};
  for (const [key, value] of [['contentType', contentType], ['accept', accept]] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 200 || !HEADER_VALUE.test(value)) throw refuse('a request header is not a plain text');
    out[key] = value;
  }
  return out;
}

/** Whether JSON nests deeper than `max` (walked without recursion: JSON.parse reads any depth). */
function deeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
