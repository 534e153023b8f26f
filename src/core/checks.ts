// The checks the core's body builders share, each for one named field and in neutral words: an
// InputError(field, problem) whose problem reads after the field's name ("name is 256 characters
// long; the limit is 255"), with no flag, tool argument or command in it. Values arrive as
// `unknown`: the library's callers may be plain JavaScript, and a face's own parse may have let
// anything through.
import { isUuid } from '../contract/ids.js';
import { LIMITS } from '../contract/limits.js';
import { InputError } from '../errors.js';

/** The largest text the service takes in one body (its proxy refuses larger requests with a 413). */
export const MAX_TEXT_BYTES = LIMITS.requestBodyBytes;

export function string(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new InputError(field, `must be a string, got ${describe(value)}`);
  return value;
}

/** A name: not blank, at most `max` characters (as the service counts them: code points). */
export function name(field: string, value: unknown, max: number): string {
  const text = string(field, value);
  if (text.trim() === '') throw new InputError(field, 'must not be empty');
  const length = [...text].length;
  if (length > max) throw new InputError(field, `is ${length} characters long; the limit is ${max}`);
  return text;
}

/** A long text (a prompt, a charter): it must fit in one request the service takes. */
export function text(field: string, value: unknown): string {
  const words = string(field, value);
  // A character is at most 4 bytes: only a long text needs counting.
  const bytes = words.length * 3 <= MAX_TEXT_BYTES ? 0 : Buffer.byteLength(words);
  if (bytes > MAX_TEXT_BYTES) throw new InputError(field, `is ${bytes} bytes long; the limit is ${MAX_TEXT_BYTES / 1024 / 1024} MiB (the largest request the service takes)`);
  return words;
}

export function boolean(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new InputError(field, `must be true or false, got ${describe(value)}`);
  return value;
}

export function oneOf<T extends string>(field: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== 'string' || !choices.includes(value as T)) throw new InputError(field, `must be one of ${choices.join(', ')}, got ${describe(value)}`);
  return value as T;
}

/** A service id (a UUID), lower-cased as the service writes it. */
export function uuid(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new InputError(field, `must be a UUID string, got ${describe(value)}`);
  if (!isUuid(value)) throw new InputError(field, `${describe(value)} is not a UUID (ids look like 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f)`);
  return value.toLowerCase();
}

export function uuids(field: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw new InputError(field, `must be an array of UUIDs, got ${describe(value)}`);
  return value.map((id) => uuid(field, id));
}

/** A whole number within bounds. */
export function integer(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new InputError(field, `must be a whole number, got ${describe(value)}`);
  if (value < min || value > max) throw new InputError(field, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** An object of input fields (the library's callers may hand anything). */
export function fields(value: unknown, example: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError('input', `must be an object like ${example}`);
  return value as Record<string, unknown>;
}

/** A value as a complaint names it: never a long text (it may be a secret put in the wrong place). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return isUuid(value) || value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'number' ? String(value) : `a ${typeof value}`;
}
