// A cassette: every request the client sends and the answer it got, one JSON line each, for
// `emulator check` to replay and for a user to attach to a report. Whatever could be a secret is
// taken out before a byte is written: the API key and every secret the redactor knows (in any
// encoding it knows), task secret values, tokens in URL queries (a webhook's `?t=`), passwords in
// URLs; only a few headers are kept, never X-Api-Key or Authorization. Each line is one append of
// one write, so a recording killed midway is a valid cassette up to its last line, and several
// processes (AGENTCTL_RECORD across a script's commands) can append to the same file.
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { redactBody, scrubStrings, type Redactor } from './redact.js';

/** The cassette format's version, on every line. */
export const CASSETTE_VERSION = 1;

/** One exchange as a cassette line holds it. */
export interface CassetteEntry {
  agentctl: typeof CASSETTE_VERSION;
  /** When the request was sent (ISO 8601, the client's clock) and how long its answer took. */
  at: string;
  ms: number;
  method: string;
  /** The base URL (its origin and the version segment) and the path below it (with its slash). */
  base: string;
  path: string;
  query?: Record<string, string>;
  requestHeaders?: Record<string, string>;
  requestBody?: unknown;
  /** The answer; or `error`, the code of a request that got none (a timeout, a reset). */
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  error?: string;
}

/** Request and answer headers a replay or a reader needs; every other one stays out. */
const REQUEST_HEADERS = ['content-type', 'accept'];
const ANSWER_HEADERS = ['content-type', 'allow', 'location', 'retry-after', 'vary'];

/** Query parameters that carry a credential (a webhook's `?t=`, signed links): their values never go in. */
const TOKEN_PARAMS = new Set(['t', 'token', 'secret', 'key', 'api_key', 'apikey', 'access_token', 'sig', 'signature', 'password']);
const TOKEN_IN_TEXT = /([?&](?:t|token|secret|key|api_key|apikey|access_token|sig|signature|password)=)[^&#\s"'<>]*/gi;
const PASSWORD_IN_URL = /(:\/\/[^/\s:@"'<>]*:)[^@/\s"'<>]*@/g;
/** The same, to ask whether a line holds any (no `g`: a test of a global expression moves its lastIndex). */
const ANY_PASSWORD = new RegExp(PASSWORD_IN_URL.source, 'i');
/** `?t=`, `&token=`, ...: what line() searches a lowered line for, substring searches being far cheaper than a regular expression over a page. */
const TOKEN_NEEDLES = [...TOKEN_PARAMS].flatMap((name) => [`?${name}=`, `&${name}=`]);

export interface RecordedExchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  startedAt: number;
  ms: number;
  /** `text`: the body as the service sent it, when `body` is that text parsed (JSON). */
  answer?: { status: number; headers: Record<string, string | string[] | undefined>; body: unknown; text?: string };
  error?: string;
}

/** Appends exchanges to a cassette file; made by the client only when recording (else nothing runs). */
export class Cassette {
  constructor(
    readonly file: string,
    private readonly redactor: Redactor,
    /** The base URL's path (`/api/v1`): a line's path is what follows it. */
    private readonly basePath: string,
  ) {}

  /** The file, opened for appending at the first line (and again after close()). */
  private fd: number | undefined;

  /**
   * Appends one line in one write (O_APPEND: lines of several processes never interleave); a file
   * that cannot be written stops the run (a recording with holes would mislead).
   */
  record(exchange: RecordedExchange): void {
    try {
      this.fd ??= openSync(this.file, 'a', 0o600);
      const bytes = Buffer.from(`${this.line(exchange)}\n`);
      for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done);
    } catch (error) {
      throw new CassetteError(this.file, error);
    }
  }

  /** Closes the file (a later line opens it again). */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  /** Creates the file if it is not there (nothing is written): a path that cannot be written fails before any request. */
  open(): this {
    createCassetteFile(this.file);
    return this;
  }

  /**
   * The line for one exchange, with every secret taken out. Most answers hold no secret, no URL
   * token and no URL password: the line is written as it is once a search of its text finds none
   * (a few substring searches); only a line that holds one is scrubbed text by text (entry()), so a
   * secret is replaced inside its JSON string and never across the line's structure.
   */
  line(exchange: RecordedExchange): string {
    const raw = asIs(exchange, (entry) => this.entry(entry, 'as-is'));
    const lowered = raw.toLowerCase();
    if (!this.redactor.appearsIn(raw) && !TOKEN_NEEDLES.some((needle) => lowered.includes(needle)) && !(lowered.includes('@') && ANY_PASSWORD.test(raw))) return raw;
    return JSON.stringify(this.entry(exchange, 'scrubbed'));
  }

  /**
   * The entry for one exchange: `scrubbed`, every text of it (keys included) through text(); `as-is`,
   * its texts as they are, for line()'s search. Task secret values are out either way.
   */
  entry({ method, url, headers, body, startedAt, ms, answer, error }: RecordedExchange, texts: 'scrubbed' | 'as-is' = 'scrubbed'): CassetteEntry {
    const clean = texts === 'as-is' ? (text: string) => text : (text: string) => this.text(text);
    const value = (json: unknown) => (texts === 'as-is' ? json : scrubStrings(json, clean));
    const base = this.basePath.replace(/\/$/, '');
    const path = url.pathname.startsWith(base) ? url.pathname.slice(base.length) || '/' : url.pathname;
    const entry: CassetteEntry = { agentctl: CASSETTE_VERSION, at: new Date(startedAt).toISOString(), ms, method, base: clean(`${url.origin}${base}`), path: clean(path) };
    const query = this.query(url.searchParams, clean);
    if (query !== undefined) entry.query = query;
    const requestHeaders = kept(headers, REQUEST_HEADERS);
    if (requestHeaders !== undefined) entry.requestHeaders = requestHeaders;
    if (body !== undefined) entry.requestBody = value(redactBody(body));
    if (answer !== undefined) {
      entry.status = answer.status;
      const answerHeaders = kept(answer.headers, ANSWER_HEADERS);
      if (answerHeaders !== undefined) entry.headers = value(answerHeaders) as Record<string, string>;
      if (answer.body !== undefined) entry.body = value(answer.body);
    }
    if (error !== undefined) entry.error = clean(error);
    return entry;
  }

  private query(params: URLSearchParams, clean: (text: string) => string): Record<string, string> | undefined {
    if (params.size === 0) return undefined;
    const query: Record<string, string> = {};
    for (const [name, value] of params) {
      Object.defineProperty(query, clean(name), { value: TOKEN_PARAMS.has(name.toLowerCase()) ? '***' : clean(value), enumerable: true, writable: true, configurable: true });
    }
    return query;
  }

  /** A text with every known secret, URL token and URL password replaced by `***`. */
  private text(value: string): string {
    return this.redactor.redact(value).replace(TOKEN_IN_TEXT, '$1***').replace(PASSWORD_IN_URL, '$1***@');
  }
}

/** Creates a cassette file if it is not there, writing nothing; CassetteError when it cannot be written. */
export function createCassetteFile(file: string): void {
  try {
    appendFileSync(file, '', { mode: 0o600 });
  } catch (error) {
    throw new CassetteError(file, error);
  }
}

/** The cassette cannot be written: the recording stops, and the command with it (exit 2). */
export class CassetteError extends UsageError {
  constructor(file: string, cause: unknown) {
    super(`cannot write the cassette ${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, 'give a file in a folder you can write to');
    this.name = 'CassetteError';
  }
}

/** The named headers of `headers` that are present, as strings; undefined when none is. */
function kept(headers: Record<string, string | string[] | undefined>, names: string[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined) (out ??= {})[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}


/**
 * The line of an exchange with its texts as they are. A JSON answer's body is most of a line (a page
 * of 100 tasks is ~65 KB): it goes in as the text the service sent, after the rest of the entry (the
 * body is the entry's last key), rather than serialized once more from what was parsed; the same
 * JSON value, a fifth of a --record run's CPU less over a long list. A text on more than one line
 * (pretty-printed JSON) is serialized, as a cassette line is one line.
 */
function asIs(exchange: RecordedExchange, entry: (exchange: RecordedExchange) => CassetteEntry): string {
  const { answer } = exchange;
  const text = answer?.text;
  if (answer === undefined || text === undefined || answer.body === undefined || text.includes('\n') || text.includes('\r')) return JSON.stringify(entry(exchange));
  const rest = JSON.stringify(entry({ ...exchange, answer: { ...answer, body: undefined } }));
  return `${rest.slice(0, -1)},"body":${text}}`;
}
