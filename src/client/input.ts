// The library's input checks: the core's (src/core/checks.ts), each for one named field, and the
// command line's own checks of src/contract run for a field, their complaint handed over as an
// InputError naming it.
import { checkHttpUrl } from '../contract/validate.js';
import { describe, integer, oneOf, string, uuid } from '../core/checks.js';
import { inField } from '../core/fields.js';
import { InputError } from '../errors.js';

export { integer, oneOf, uuid };

/** Runs a check of `field` of src/contract, its refusal an InputError of that field (src/core/fields.ts). */
export const checked = inField;

/** An optional id: undefined stays undefined. */
export function optionalUuid(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : uuid(field, value);
}

/** A text that is not blank, of at most `max` characters when given. */
export function nonEmptyString(field: string, value: unknown, max?: number): string {
  const text = string(field, value);
  if (text.trim() === '') throw new InputError(field, 'must not be empty');
  const length = max === undefined ? 0 : [...text].length;
  if (max !== undefined && length > max) throw new InputError(field, `is ${length} characters long; the limit is ${max}`);
  return text;
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
