import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

/** Reads all of a stream (stdin) as text. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a text file, or stdin for `-`, with an error that names the flag. */
export async function readTextInput(path: string, flag: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (path === '-') return readStdin(stdin);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? String(error));
    throw new UsageError(`${flag}: cannot read ${path}: ${reason}`);
  }
}

/** Parses JSON text with an error that says where it came from and what is wrong. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
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
