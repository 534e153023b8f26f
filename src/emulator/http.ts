import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PyJsonError, PyJsonTooDeep, pyLoads } from './python-json.js';

export { UUID_PATTERN } from '../contract/ids.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

/** Django-style field errors: `{"field": ["message"]}`. */
export function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, { [field]: [message] });
}

/** A bare Http404 (DRF's generics.get_object_or_404 on a malformed id, or a view's own `raise Http404`). */
export const notFound = (): HttpError => new HttpError(404, { detail: 'Not found.' });

/**
 * A well-formed id that names no record: Django's get_object_or_404 says which model it looked in
 * ("No PersistentAgent matches the given query."), and DRF passes the text on as the 404's detail.
 */
export const noMatch = (model: 'BrowserUseAgent' | 'BrowserUseAgentTask' | 'PersistentAgent'): HttpError =>
  new HttpError(404, { detail: `No ${model} matches the given query.` });

/** The service's answer to an exception its views do not catch (its JSON exception handler). */
export const serverError = (errorId: string): HttpError => new HttpError(500, { detail: 'Internal server error.', error_id: errorId });

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** JSON text as DRF's JSONRenderer sends it: U+2028 and U+2029 escaped (JSON allows them raw, JavaScript source did not). */
export function sendJsonText(res: ServerResponse, status: number, json: string): void {
  const text = /[\u2028\u2029]/.test(json) ? json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : json;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

/** Unknown routes (and malformed ids in `<uuid:...>` paths) answer Django's HTML 404 page. */
export function sendHtmlNotFound(res: ServerResponse, path: string): void {
  const html = `<!doctype html><html><head><title>Not Found</title></head><body><h1>Not Found</h1><p>The requested resource ${escapeHtml(path)} was not found on this server.</p></body></html>`;
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

/** A body over the proxy's limit: nginx answers 413 with its own HTML page and closes the connection. */
export function sendTooLarge(res: ServerResponse): void {
  const html = '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
  res.writeHead(413, { 'content-type': 'text/html', connection: 'close', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

export class BodyTooLarge extends Error {}

/**
 * Reads the request body, refusing (BodyTooLarge) one longer than `limit` bytes before reading it all.
 * With 'data' events, not `for await`: the async iterator cost every create ~3 us (a batch's throughput
 * against the emulator is bounded by the emulator's time per request).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const length = req.headers['content-length'];
  // No length and no chunked body: nothing to read (most GETs), so skip the stream machinery.
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return Promise.resolve('');
  }
  const declared = Number(length);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: Error) => {
      req.removeAllListeners('data').removeAllListeners('end');
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new BodyTooLarge());
      else chunks.push(chunk);
    });
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('error', fail);
    req.once('close', () => {
      if (!req.complete) fail(new Error('the request was cut off before its body ended'));
    });
  });
}

/**
 * Parses a JSON request body as DRF's JSONParser does (rest_framework/parsers.py JSONParser.parse):
 * an empty body is no data (an empty object); anything else must be JSON, NaN and the infinities
 * refused (utils/json.py strict_constant), and a failure is worded by Python's json module.
 */
export function parseJsonBody(text: string): Record<string, unknown> {
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, { detail: `JSON parse error - ${pythonParseError(text)}` });
  }
  // JSON null is "no data" to a serializer: its validate_empty_values refuses it before any field.
  if (value === null) throw new HttpError(400, { non_field_errors: ['No data provided'] });
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, { non_field_errors: ['Invalid data. Expected a dictionary, but got ' + (Array.isArray(value) ? 'list' : pythonType(value)) + '.'] });
  }
  return value as Record<string, unknown>;
}

/** Why Python's json.loads refuses a text JSON.parse refused too (or the service's 500, past its recursion limit). */
function pythonParseError(text: string): string {
  try {
    pyLoads(text, { strict: true });
  } catch (error) {
    if (error instanceof PyJsonError) return error.message;
    if (error instanceof PyJsonTooDeep) throw serverError(randomUUID());
    throw error;
  }
  return 'Expecting value: line 1 column 1 (char 0)'; // not reached: both parsers refuse the same texts
}

function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value;
}
