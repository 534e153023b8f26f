// The library's input checks: the command line's own checks of the service's limits (contract/),
// each run for one named field, its complaint handed over as an InputError naming that field.
import { checkHttpUrl, checkUuid, isUuid } from '../contract/validate.js';
import { inField } from '../core/fields.js';
import { InputError } from '../errors.js';

/** Runs a check of `field` of src/contract, its refusal an InputError of that field (src/core/fields.ts). */
export const checked = inField;

/** A service id (a UUID), lower-cased as the service writes it. */
export function uuid(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new InputError(field, `must be a UUID string, got ${describe(value)}`);
  return checked(field, () => checkUuid(value, field));
}

/** An optional id: undefined stays undefined. */
export function optionalUuid(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : uuid(field, value);
}

export function nonEmptyString(field: string, value: unknown, max?: number): string {
  if (typeof value !== 'string') throw new InputError(field, `must be a string, got ${describe(value)}`);
  if (value.trim() === '') throw new InputError(field, 'must not be empty');
  const length = [...value].length;
  if (max !== undefined && length > max) throw new InputError(field, `is ${length} characters long; the limit is ${max}`);
  return value;
}

/** A whole number within bounds. */
export function integer(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new InputError(field, `must be a whole number, got ${describe(value)}`);
  if (value < min || value > max) throw new InputError(field, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A duration in milliseconds, more than 0 (Infinity is not one: leave the option out to wait without end). */
export function duration(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new InputError(field, `must be a number of milliseconds above 0, got ${describe(value)}`);
  return value;
}

export function httpUrl(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new InputError(field, `must be an http(s) URL string, got ${describe(value)}`);
  checked(field, () => checkHttpUrl(value, field));
  return value;
}

export function oneOf<T extends string>(field: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== 'string' || !choices.includes(value as T)) throw new InputError(field, `must be one of ${choices.join(', ')}, got ${describe(value)}`);
  return value as T;
}

/** A value as a complaint names it: never a long text (it may be a secret put in the wrong place). */
function describe(value: unknown): string {
  if (typeof value === 'string') return isUuid(value) || value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'number' ? String(value) : `a ${typeof value}`;
}
