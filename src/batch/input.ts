// The input of `tasks run-batch`: JSON Lines (one task object a line) or plain prompts (one a
// line), from a file or stdin. Read as a stream, twice for a file (once to check every line before
// anything is sent, once to send), so memory does not grow with the number of lines.
import { hash } from 'node:crypto';
import { access, open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { Redactor } from '../api/redact.js';
import type { TaskBody } from '../api/schemas/task.js';
import type { TaskScope } from '../api/tasks.js';
import { jsonErrorAt } from '../contract/json-error.js';
import { loneSurrogateIn } from '../contract/text.js';
import { checkUuid } from '../contract/validate.js';
import { taskBody, type TaskFields } from '../core/task-body.js';
import { InputError, UsageError } from '../errors.js';
import type { Ledger } from './ledger.js';

/** One task of the input, checked and ready to send. */
export interface BatchLine {
  /** 1-based line number in the input (blank lines count). */
  line: number;
  key?: string;
  /** Fingerprint of the line's text: the ledger refuses to resume against a changed input. */
  hash: string;
  scope: TaskScope;
  body: TaskBody;
}

const FIELDS = ['prompt', 'output_schema', 'secrets', 'webhook', 'agent', 'key'] as const;

export function lineHash(text: string): string {
  return hash('sha256', text, 'hex').slice(0, 16);
}

/**
 * Checks one line with the same rules as `tasks create`. Blank lines are skipped (undefined); a line
 * starting with `{` is a JSON task object, anything else is a prompt. Throws UsageError naming the line.
 * `fingerprint: false` leaves `hash` empty (checking a first run's input has no ledger to compare with).
 */
export function parseBatchLine(raw: string, line: number, redactor?: Redactor, fingerprint = true): BatchLine | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  const hash = fingerprint ? lineHash(text) : '';
  if (!text.startsWith('{')) return { line, hash, scope: {}, body: inQuotes(() => taskBody({ prompt: text }, 'create')) };
  try {
    // Only a \u escape makes a lone surrogate (decoding UTF-8 never does): most lines need no look.
    return { line, hash, ...taskFromObject(JSON.parse(text) as unknown, redactor, SURROGATE_ESCAPE.test(text)) };
  } catch (error) {
    if (error instanceof SyntaxError) {
      // Never V8's message: it quotes the line, which may hold secrets.
      const { reason, index } = jsonErrorAt(text, error);
      const column = index === undefined ? '' : ` (column ${raw.length - raw.trimStart().length + index + 1})`;
      throw new UsageError(`line ${line}: not valid JSON: ${reason}${column}`);
    }
    if (error instanceof UsageError) throw new UsageError(`line ${line}: ${error.message}`, error.hint);
    throw error;
  }
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function taskFromObject(value: unknown, redactor: Redactor | undefined, escaped: boolean): { key?: string; scope: TaskScope; body: TaskBody } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('a task line must be a JSON object or a plain prompt');
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((field) => !(FIELDS as readonly string[]).includes(field));
  if (unknown.length > 0) throw new UsageError(`unknown field "${unknown[0]}"`, `a task line may have: ${FIELDS.join(', ')}`);
  // JSON's \ud800 passes every other check and is refused by the service, mid-batch: refused here, before any request.
  for (const field of escaped ? FIELDS : []) {
    const surrogate = loneSurrogateIn(record[field]);
    if (surrogate) throw new UsageError(`"${field}" holds a lone surrogate (${surrogate}), which is not text (UTF-8 cannot carry it; the service refuses it)`, 'write the character itself, or its pair of \\u escapes');
  }
  const fields = { prompt: record.prompt, output_schema: record.output_schema, secrets: record.secrets, webhook: record.webhook } as TaskFields;
  const body = inQuotes(() => taskBody(fields, 'create', redactor));
  const scope: TaskScope = {};
  if (record.agent !== undefined) scope.agentId = checkUuid(String(record.agent), '"agent"');
  let key: string | undefined;
  if (record.key !== undefined) {
    if (typeof record.key !== 'string' || record.key === '') throw new UsageError('"key" must be a non-empty string');
    key = record.key;
  }
  return { key, scope, body };
}

/** The core's task body (src/core/task-body.ts), its refusals naming the line's field as the file spells it: `"webhook" ...`. */
function inQuotes<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(error.field === 'input' ? error.problem : `"${error.field}" ${error.problem}`);
    throw error;
  }
}

/** Which lines this job takes: `--shard i/n` keeps every n-th task from the i-th (1-based). */
export interface Shard {
  index: number;
  count: number;
}

/** The most shards a batch is split into (past it, a count is a typo or a hostile variable, and its lines would go to shards that never run). */
export const MAX_SHARDS = 100_000;

export function parseShard(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new UsageError(`--shard must be I/N with 1 <= I <= N <= ${MAX_SHARDS}, got "${value}"`, 'e.g. --shard 2/4 takes tasks 2, 6, 10, ... of the file');
  }
  return { index, count };
}

/** An input: a file read as a stream (any number of times), or stdin read once into memory. */
export interface BatchSource {
  name: string;
  /** The input's lines, a chunk at a time (one promise per chunk, not per line: a batch reads 10,000s). */
  lines(): AsyncIterable<string[]>;
}

/** The longest line of a tasks file (characters): a prompt, an output schema and secrets fit many times over. */
export const MAX_TASK_LINE = 16 * 1024 * 1024;

export async function openSource(path: string, readStdin: () => Promise<string>, maxLine = MAX_TASK_LINE): Promise<BatchSource> {
  if (path === '-') {
    const lines = (await readStdin()).split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return { name: 'stdin', lines: async function* () { yield lines.map(withoutCR); } };
  }
  try {
    await access(path);
  } catch {
    throw new UsageError(`cannot read ${path}: no such file`, 'give a JSON Lines file, or - to read the tasks from stdin');
  }
  return { name: path, lines: () => fileLines(path, maxLine) };
}

/** Bytes read from a file at a time. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The lines of a file, split on \n (a \r before it is dropped), read 256 KiB at a time. Read with a
 * file handle, not a read stream: the requests' response streams are then the only readable streams
 * of the run. A file stream first taught V8 its shapes, and a dozen stream functions were deoptimized
 * and compiled again once the requests began. A line longer than `maxLine` characters is refused as
 * soon as it is (a file with no line breaks, /dev/zero, would else be held until memory runs out);
 * a line that spans reads is kept in pieces, joined once its end comes.
 */
async function* fileLines(path: string, maxLine: number): AsyncIterable<string[]> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new StringDecoder('utf8'); // holds a character split between two reads, as a stream's does
    let partial: string[] = [];
    let partialLength = 0;
    let line = 0;
    const tooLong = () => new UsageError(`${path}: line ${line + 1} is longer than ${maxLine / 1024 / 1024} MiB: not a file of lines`, 'give the file of JSON lines itself');
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const text = decoder.write(buffer.subarray(0, bytesRead));
      const lines = text.split('\n');
      const last = lines.pop() ?? '';
      if (lines.length > 0) {
        lines[0] = partial.join('') + lines[0];
        partial = [];
        partialLength = 0;
        const long = lines.findIndex((one) => one.length > maxLine);
        if (long !== -1) {
          line += long;
          throw tooLong();
        }
        line += lines.length;
        yield lines.map(withoutCR);
      }
      partial.push(last);
      partialLength += last.length;
      if (partialLength > maxLine) throw tooLong();
    }
    const rest = partial.join('') + decoder.end();
    if (rest.length > maxLine) throw tooLong();
    if (rest !== '') yield [withoutCR(rest)];
  } finally {
    await file.close();
  }
}

const withoutCR = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

/** The tasks of this job (its shard), checked, in input order; blank lines skipped. */
export async function* batchLines(source: BatchSource, shard: Shard | undefined, redactor?: Redactor): AsyncIterable<BatchLine> {
  let line = 0;
  let task = 0;
  for await (const texts of source.lines()) {
    for (const text of texts) {
      line++;
      const parsed = parseBatchLine(text, line, redactor);
      if (!parsed) continue;
      const mine = !shard || task % shard.count === shard.index - 1;
      task++;
      if (mine) yield parsed;
    }
  }
}


const MAX_REPORTED = 20;

/**
 * Reads the whole input once and checks every line (all of them, not only this shard's, so every
 * job of a matrix agrees on what is valid), and that the ledger of a previous run matches it.
 * Reports up to 20 bad lines at once; nothing is sent. Resolves to the number of tasks in this shard.
 */
export async function checkInput(source: BatchSource, shard: Shard | undefined, ledger: Ledger, signal?: AbortSignal): Promise<number> {
  const problems: string[] = [];
  const keys = new Map<string, number>();
  let matched = 0;
  let line = 0;
  let task = 0;
  let tasks = 0;
  for await (const texts of source.lines()) {
    if (signal?.aborted) return 0; // Ctrl-C: the caller stops
    for (const text of texts) {
      line++;
      try {
        const parsed = parseBatchLine(text, line, undefined, ledger.entries.size > 0);
        if (!parsed) continue;
        if (parsed.key !== undefined) {
          const first = keys.get(parsed.key);
          if (first !== undefined) throw new UsageError(`line ${line}: key "${parsed.key}" is already used on line ${first}`);
          keys.set(parsed.key, line);
        }
        if (!shard || task % shard.count === shard.index - 1) {
          tasks++;
          if (ledger.matches(parsed)) matched++;
        }
        task++;
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        problems.push(error.message + (error.hint ? ` (${error.hint})` : ''));
      }
    }
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_REPORTED).map((problem) => `  ${problem}`);
    if (problems.length > MAX_REPORTED) shown.push(`  ... and ${problems.length - MAX_REPORTED} more`);
    throw new UsageError(`${source.name}: ${problems.length} bad line${problems.length === 1 ? '' : 's'}; nothing was sent:\n${shown.join('\n')}`);
  }
  if (task === 0) throw new UsageError(`${source.name} holds no tasks`, 'one task a line: a prompt, or {"prompt": "...", "key": "..."}');
  if (matched < ledger.entries.size) ledger.mismatch('a line it lists is not a task of this run');
  return tasks;
}
