import type { IncomingMessage, ServerResponse } from 'node:http';

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

export const notFound = (): HttpError => new HttpError(404, { detail: 'Not found.' });

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

/** Unknown routes and malformed ids answer with an HTML page, as the reference deployment does. */
export function sendHtmlNotFound(res: ServerResponse, path: string): void {
  const html = `<!doctype html><html><head><title>Not Found</title></head><body><h1>Not Found</h1><p>The requested resource ${escapeHtml(path)} was not found on this server.</p></body></html>`;
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON request body; an empty body is an empty object. */
export function parseJsonBody(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, { detail: `JSON parse error - ${(error as Error).message}` });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, { non_field_errors: ['Invalid data. Expected a dictionary, but got ' + (Array.isArray(value) ? 'list' : typeof value) + '.'] });
  }
  return value as Record<string, unknown>;
}
