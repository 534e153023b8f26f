import { describeJsonError } from '../contract/json-error.js';
import { UsageError } from '../errors.js';

/** Reads all of a stream (stdin) as text. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The largest prompt, charter or other text file agentctl sends (the service's own limit is not published). */
export const TEXT_INPUT_LIMIT_BYTES = 1024 * 1024;

/** Reads stdin up to just past `limit` bytes (enough to refuse what is over it). */
export async function readStdinBytes(stdin: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buffer);
    size += buffer.length;
    if (size > limit) break; // enough to refuse it; no need to hold the rest
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a text file, or stdin for `-`, with an error that names the flag. Text means UTF-8 without
 * NUL bytes and at most TEXT_INPUT_LIMIT_BYTES: a binary file or a mangled encoding is refused
 * rather than sent with replacement characters.
 */
export async function readTextInput(path: string, flag: string, stdin: NodeJS.ReadableStream): Promise<string> {
  const where = path === '-' ? `${flag} (stdin)` : `${flag} ${path}`;
  let bytes: Buffer;
  try {
    // node:fs/promises is loaded only when needed: loading it costs every API command ~0.9 ms.
    bytes = path === '-' ? await readStdinBytes(stdin, TEXT_INPUT_LIMIT_BYTES) : await (await import('node:fs/promises')).readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? String(error));
    throw new UsageError(`${flag}: cannot read ${path}: ${reason}`);
  }
  if (bytes.length > TEXT_INPUT_LIMIT_BYTES) {
    throw new UsageError(`${where} is over ${TEXT_INPUT_LIMIT_BYTES / 1024 / 1024} MiB; the limit is ${TEXT_INPUT_LIMIT_BYTES / 1024 / 1024} MiB`, 'send a shorter text (a prompt this long is almost always the wrong file)');
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw new UsageError(`${where} contains a NUL byte (at byte ${nul}): it looks like a binary file, not text`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${where} is not valid UTF-8 text`, 'convert it first, e.g. iconv -f latin1 -t utf-8 FILE > FILE.utf8');
  }
}

/** Parses JSON text with an error that says where it came from and what is wrong. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${describeJsonError(text, error)}`);
  }
}

/**
 * A flag that takes either inline JSON or a file: inline when the value starts with `{` or `[`,
 * `@PATH` or a plain path for a file, `-` or `@-` for stdin.
 */
export async function readJsonArgument(value: string, flag: string, stdin: NodeJS.ReadableStream): Promise<unknown> {
  const trimmed = value.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJsonText(trimmed, `${flag} value`);
  const path = trimmed.startsWith('@') ? trimmed.slice(1) : trimmed;
  const text = await readTextInput(path, flag, stdin);
  return parseJsonText(text, `${flag} ${path === '-' ? '(stdin)' : path}`);
}
