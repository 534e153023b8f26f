import { ExitCode, UsageError, type ExitCodeValue } from '../errors.js';
import { clockTime, formatDuration, formatLongDuration } from './clock.js';
import { isTransientStatus } from './retry.js';
import { oneLine } from '../contract/text.js';
import { NEUTRAL_WORDS, type FaceWords } from './words.js';

/** What the service said about waiting, kept with a 429/503 so messages can say when to try again. */
export interface RetryAfter {
  /** How long the service asked to wait. */
  ms: number;
  /** When it was said (epoch ms), to name the time. */
  at: number;
  /** What the service really asked for, when that was more than agentctl waits at most (`ms` is then the ceiling). */
  askedMs?: number;
  /** The header as sent, to quote it. */
  header?: string;
}

/** The service answered with a non-2xx status. Keeps the status and the parsed (or raw) body. */
export class ApiError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint?: string;

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly method: string,
    readonly url: string,
    readonly retryAfter?: RetryAfter,
    /** Replaces the usual hint (e.g. how to check whether a failed create was carried out). */
    hint?: string,
    /** The face's words for the usual hints (words.ts). */
    words: Pick<FaceWords, 'auth'> = NEUTRAL_WORDS,
  ) {
    const kind = classifyStatus(status, body);
    super(`${describeStatus(status, kind)}${formatBodyInline(body)}`);
    this.name = 'ApiError';
    this.exitCode = kind === 'auth' ? ExitCode.auth : kind === 'not-found' ? ExitCode.notFound : ExitCode.serviceError;
    this.hint = hint ?? (kind === 'auth' ? words.auth : hintFor(status, retryAfter));
  }

  /** The error body as readable `field: message` lines. */
  get lines(): string[] {
    return describeErrorBody(this.body);
  }
}

/**
 * A 404 that is not the API's JSON, from a base URL with no /api/vN in its path: the base URL lacks
 * its version segment (`http://127.0.0.1:8787` for `http://127.0.0.1:8787/api/v1`). A setup error
 * (exit 2) that names the URL to use: the one the user gave with /api/v1 appended.
 */
export class MissingApiVersionError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.usage;
  readonly hint: string;
  readonly suggestedBaseUrl: string;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly baseUrl: string,
    words: Pick<FaceWords, 'missingApiVersion'> = NEUTRAL_WORDS,
  ) {
    super(`the service answered 404 with a page that is not the API's JSON (${method} ${path})`);
    this.name = 'MissingApiVersionError';
    this.suggestedBaseUrl = `${baseUrl.replace(/\/+$/, '')}/api/v1`;
    this.hint = words.missingApiVersion(baseUrl, this.suggestedBaseUrl);
  }

  /** Whether a 404 with this body, from this base, means the base lacks its version segment. */
  static applies(status: number, body: unknown, base: URL): boolean {
    return status === 404 && (typeof body === 'string' || body === undefined) && !/\/api\/v\d+(\/|$)/.test(base.pathname);
  }
}

/**
 * A base URL of plain http:// to another machine, refused before any request: the API key would
 * cross the network in clear text. The hint is the face's: how to allow it there (a flag, an option).
 */
export class InsecureHttpError extends UsageError {
  constructor(
    /** Where the key would have gone (host and port): never the key. */
    readonly host: string,
    hint: string,
  ) {
    super(`refusing to send the API key in clear text to ${host}: the base URL is http://, and ${host} is not this machine`, hint);
    this.name = 'InsecureHttpError';
  }
}

/**
 * A base URL on the hosted service's hosts, which closed on 2026-09-01 (see closedServiceHost):
 * refused before any request, as a setup error (exit 2) that says where the service runs now.
 */
export class ClosedServiceError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.usage;
  readonly hint = 'run gobii-platform yourself (Docker Compose) and point the base URL at its API, e.g. http://localhost:8000/api/v1';
  constructor(
    readonly baseUrl: string,
    readonly host: string,
  ) {
    super(`the base URL ${baseUrl} is on ${host}, whose hosted service closed on 2026-09-01: nothing answers the API there`);
    this.name = 'ClosedServiceError';
  }
}

/** The service could not be reached, or stopped answering, even after retries. */
export class NetworkError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.network;
  constructor(
    message: string,
    readonly hint?: string,
    override readonly cause?: unknown,
    /** The request may have reached the service before the connection broke (a create may exist). */
    readonly mayHaveBeenCarriedOut = false,
    /** Refused by this machine before the service was ever reached: nothing listens there, retrying cannot help. */
    readonly nothingListens = false,
    /** No answer came within the request's time limit (a wait tells its own deadline from an outage by it). */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** A wait that ended without the task ending: its deadline passed (7) or the outage lasted too long. */
export class WaitEndedError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'WaitEndedError';
  }
}

/** A network failure, or the service answering 5xx/429: worth trying again later, in a wait. */
export function isTransientError(error: unknown): error is NetworkError | ApiError {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && isTransientStatus(error.status);
}

/** A 3xx: never followed, since the API key would go along to wherever the service points. */
export class RedirectError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.serviceError;
  readonly hint: string;

  constructor(
    readonly status: number,
    readonly location: string | undefined,
    method: string,
    url: URL,
    base: URL,
    words: Pick<FaceWords, 'moved' | 'checkBaseUrl'> = NEUTRAL_WORDS,
  ) {
    let target: URL | undefined;
    try {
      target = location === undefined ? undefined : new URL(location, url);
    } catch {
      // an unreadable Location is quoted as it came
    }
    const where = location === undefined ? 'without saying where (no Location header)' : `to ${target?.href ?? location}`;
    super(`${method} ${url.pathname} was answered ${status}, a redirect ${where}; agentctl does not follow redirects`);
    this.name = 'RedirectError';
    // A service that moved as a whole redirects every path the same way: its new base URL is the target minus our path.
    const below = url.href.slice(base.href.length);
    const moved = target && below !== '' && target.href.endsWith(below) ? target.href.slice(0, -below.length).replace(/\/$/, '') : undefined;
    this.hint = moved ? words.moved(moved) : words.checkBaseUrl;
  }
}

/** A success whose body is not JSON (a login page, a cut-off answer): says so, with why it does not parse. */
export function notJsonError(method: string, path: string, status: number, contentType: string | undefined, text: string): ResponseShapeError {
  let why = '';
  if (contentType?.includes('json')) {
    try {
      JSON.parse(text);
    } catch (error) {
      why = `; ${(error as Error).message}`;
    }
  }
  const shown = /<[a-z!]/i.test(text) ? summariseText(text) : oneLine(text.slice(0, 200));
  return new ResponseShapeError(`${method} ${path} answered ${status} with a body that is not JSON (${contentType ?? 'no content type'}${why}): ${shown}`);
}

/** The service answered 2xx, but not with what the API promises (wrong shape, not JSON, too big). */
export class ResponseShapeError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.serviceError;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    // One line: it quotes the service (ids, cursors, keys, the start of a body), which may hold line breaks.
    super(oneLine(message));
    this.name = 'ResponseShapeError';
  }
}

/** A list whose pages would never end: links in a circle, pages past its count, pages with nothing new. */
export class EndlessListError extends ResponseShapeError {
  constructor(message: string, hint = 'the service\'s pagination is broken; tell its operators') {
    super(message, hint);
    this.name = 'EndlessListError';
  }
}

type ErrorKind = 'auth' | 'forbidden' | 'not-found' | 'other';

const AUTH_WORDS = /credential|api[ _-]?key|authenticat|token|not authori[sz]ed/i;

function classifyStatus(status: number, body: unknown): ErrorKind {
  if (status === 401) return 'auth';
  // 403 means a bad key only when the body says so; otherwise it is an ordinary refusal.
  if (status === 403) return AUTH_WORDS.test(describeErrorBody(body).join(' ')) ? 'auth' : 'forbidden';
  if (status === 404) return 'not-found';
  return 'other';
}

const STATUS_TEXT: Record<number, string> = {
  400: 'invalid request',
  401: 'authentication failed',
  402: 'payment required',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  409: 'conflict',
  429: 'too many requests',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

function describeStatus(status: number, kind: ErrorKind): string {
  const text = kind === 'auth' ? 'authentication failed' : (STATUS_TEXT[status] ?? 'error');
  return `the service answered ${status} (${text})`;
}

function formatBodyInline(body: unknown): string {
  const lines = describeErrorBody(body);
  if (lines.length === 0) return '';
  return lines.length === 1 ? `: ${lines[0]}` : `:\n  ${lines.join('\n  ')}`;
}

function hintFor(status: number, retryAfter: RetryAfter | undefined): string | undefined {
  if (retryAfter && (status === 429 || status === 503)) {
    const why = status === 429 ? 'the service is rate limiting' : 'the service is unavailable';
    const { askedMs, header } = retryAfter;
    if (askedMs !== undefined && askedMs > retryAfter.ms) {
      return `${why} and asks to wait ${formatLongDuration(askedMs)} (Retry-After: ${header ?? '?'}), far more than agentctl ever waits: it stopped at once; try again later`;
    }
    return `${why} and asks to wait ${formatDuration(retryAfter.ms)}: try again at ${clockTime(retryAfter.at + retryAfter.ms)} or later`;
  }
  if (status === 429) return 'the service is rate limiting and did not say for how long; wait a minute and try again';
  if (status >= 500) return 'the service had a problem; try again later';
  return undefined;
}

const MAX_ERROR_DEPTH = 16;

/**
 * Renders any error body shape the service sends as readable lines:
 * `{"field": ["msg"]}` -> `field: msg`, `{"detail": "..."}` -> `...`, `["msg"]` -> `msg`,
 * `{"code","message"}` -> `message (code)`, and HTML or text pages -> their title or first words.
 */
export function describeErrorBody(body: unknown, prefix = '', depth = 0): string[] {
  if (body === undefined || body === null || body === '') return [];
  if (typeof body === 'string') return [prefix + summariseText(body)];
  if (typeof body !== 'object') return [prefix + oneLine(String(body))];
  // A body nested deeper than any error message is not read to its bottom (thousands of levels would overflow the stack).
  if (depth >= MAX_ERROR_DEPTH) return [`${prefix}(nested deeper than ${MAX_ERROR_DEPTH} levels)`];
  if (Array.isArray(body)) return body.flatMap((item) => describeErrorBody(item, prefix, depth + 1));

  // Every text of the body is the service's, keys included: each is folded to one line, so a line
  // break in it cannot start a line of its own (a CI workflow command, a line that passes for ours).
  const record = body as Record<string, unknown>;
  const lines: string[] = [];
  if (typeof record.detail === 'string') lines.push(prefix + oneLine(record.detail));
  if (typeof record.message === 'string') {
    lines.push(prefix + oneLine(record.message) + (typeof record.code === 'string' ? ` (${oneLine(record.code)})` : ''));
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'detail' && typeof value === 'string') continue;
    if (key === 'message' && typeof value === 'string') continue;
    if (key === 'code' && typeof record.message === 'string') continue;
    const field = oneLine(key);
    // Django's model validation says `__all__` where DRF says `non_field_errors`: both are the record's, not a field's.
    if (key === 'non_field_errors' || key === '__all__') {
      lines.push(...describeErrorBody(value, prefix, depth + 1));
    } else if (key === 'error_id' || key === 'reactivation_url') {
      lines.push(`${prefix}${key.replace('_', ' ')}: ${oneLine(String(value))}`);
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      lines.push(...describeErrorBody(value, `${prefix}${field}.`, depth + 1));
    } else {
      lines.push(...describeErrorBody(value, `${prefix}${field}: `, depth + 1));
    }
  }
  return lines;
}

/** An HTML error page becomes its <title> (or its first words); plain text is shortened. */
export function summariseText(text: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const plain = oneLine(title ?? text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, '').replace(/<[^>]+>/g, ' '));
  const short = plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
  return /<[a-z!]/i.test(text) ? `${short || 'an HTML page'} (non-JSON response)` : short;
}

/** A walk that stopped part-way: what was read is complete up to `itemsRead`. Carries the cause's exit code. */
export class PartialListError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint: string;

  constructor(
    override readonly cause: Error & { exitCode?: ExitCodeValue; hint?: string },
    readonly itemsRead: number,
    readonly failedPage: number | undefined,
    readonly totalPages: number | undefined,
    /** The list's count moved while it was read: what was printed is no longer a clean prefix. */
    readonly changed = false,
    /** Where the walk stopped, when it is not a numbered page (a timeline's window). */
    where?: string,
    words: Pick<FaceWords, 'readOnFrom'> = NEUTRAL_WORDS,
  ) {
    where ??= failedPage === undefined ? 'following a next link' : `at page ${failedPage}${totalPages ? ` of ${totalPages}` : ''}`;
    super(`the list is partial: it stopped ${where}, after ${itemsRead} item${itemsRead === 1 ? '' : 's'}: ${cause.message}`);
    this.name = 'PartialListError';
    this.exitCode = cause.exitCode ?? 1;
    // Reading on page by page meets the same broken pages: no resume point for those.
    const resume = failedPage === undefined || cause instanceof EndlessListError ? '' : words.readOnFrom(failedPage);
    const printed = changed
      ? 'the list changed while it was read, so what was printed may lack items: run the command again'
      : `what was printed is correct up to there: run the command again${resume}`;
    this.hint = `${cause.hint ? `${cause.hint}; ` : ''}${printed}`;
  }
}

/**
 * The deployment lacks a tool of its MCP endpoint: no endpoint at all (404), or "Unknown tool". The
 * message names the first gobii-platform version that has the tool.
 */
export class ServiceToolMissingError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.serviceError;
  constructor(
    readonly baseUrl: string,
    readonly tool: string,
    readonly since: string,
    readonly hint?: string,
  ) {
    super(`the service at ${baseUrl} has no ${tool} tool on its MCP endpoint: gobii-platform ${since} or later has it`);
    this.name = 'ServiceToolMissingError';
  }
}

/** No such file of an agent (not listed, or the service will not read it for this key): exit 4, as a missing record. */
export class MissingFileError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.notFound;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'MissingFileError';
  }
}
