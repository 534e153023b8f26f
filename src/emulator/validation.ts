import { SERVICE_LIMITS as LIMITS } from '../contract/limits.js';
// Python keeps a lone surrogate from JSON's \ud800 as a character of its own; DRF refuses it.
import { LONE_SURROGATE } from '../contract/text.js';
import { outputSchemaProblem } from '../contract/output-schema.js';
import { isDjangoUrl } from './url-validator.js';
import { HttpError, fieldError } from './http.js';
import type { FormSpec } from './form.js';
import { checkSecrets } from './secrets.js';

// The service's checks of a request body in its error shapes: every field's problem at once,
// `{"field": ["message"]}` (list fields: `{"field": {"<index>": [...]}}`), as a DRF serializer does.

/** A rejected field: the value of the field's entry in the 400 body. */
export class FieldProblem extends Error {
  constructor(readonly detail: string[] | Record<string, string[]>) {
    super('invalid field');
  }
}

export const problem = (message: string) => new FieldProblem([message]);

/** Runs each present field's check; throws one 400 with every problem found. */
export function checkFields<T extends object>(body: Record<string, unknown>, checks: { [K in keyof T]-?: (value: unknown) => T[K] }): T {
  const result: Record<string, unknown> = {};
  const errors: Record<string, unknown> = {};
  for (const [field, check] of Object.entries(checks) as [string, (value: unknown) => unknown][]) {
    if (body[field] === undefined) continue;
    try {
      result[field] = check(body[field]);
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      errors[field] = error.detail;
    }
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return result as T;
}

/** What Python's str.isspace() calls white space (str.strip() removes it): not JS's trim(), which strips U+FEFF and keeps U+001C-U+001F and U+0085. */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
/** Python's str.strip(). */
export const pythonStrip = (value: string): string => value.replace(PY_STRIP, '');
const PY_SPACES = new RegExp(`[${PY_SPACE}]+`);
/** Python's str.split() without a separator: the words between runs of white space. */
export const pythonSplit = (value: string): string[] => {
  const stripped = pythonStrip(value);
  return stripped === '' ? [] : stripped.split(PY_SPACES);
};
/** DRF's IntegerField and DecimalField refuse longer text before they parse it. */
const MAX_NUMBER_TEXT = 1000;

/**
 * DRF's CharField: a string or a number (as its text; not a boolean), stripped as Python strips;
 * null and blank only where allowed; then its validators, every problem at once: at most `max`
 * characters, no null character, no lone surrogate.
 */
export function text(max: number, options: { nullable?: boolean; blank?: boolean } = {}) {
  return (value: unknown): string | null => {
    if (value === null) {
      if (options.nullable) return null;
      throw problem('This field may not be null.');
    }
    if (typeof value !== 'string' && typeof value !== 'number') throw problem('Not a valid string.');
    const trimmed = pythonStrip(String(value));
    if (trimmed === '') {
      if (!options.blank) throw problem('This field may not be blank.');
      return trimmed;
    }
    const problems: string[] = [];
    // Counted in code points as Python does, only when the UTF-16 length could exceed the limit.
    if (trimmed.length > max && [...trimmed].length > max) problems.push(`Ensure this field has no more than ${max} characters.`);
    if (trimmed.includes('\0')) problems.push('Null characters are not allowed.');
    const surrogate = LONE_SURROGATE.exec(trimmed);
    if (surrogate) problems.push(`Surrogate characters are not allowed: U+${(surrogate[0].codePointAt(0) as number).toString(16).toUpperCase()}.`);
    if (problems.length > 0) throw new FieldProblem(problems);
    return trimmed;
  };
}

// DRF's BooleanField: exactly these values, as written (no trimming, no case folding).
const TRUE_VALUES = new Set<unknown>(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 1, true]);
const FALSE_VALUES = new Set<unknown>(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 0, false]);

export function boolean(value: unknown): boolean {
  if (value === null) throw problem('This field may not be null.');
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  throw problem('Must be a valid boolean.');
}

/**
 * DRF's IntegerField: an integer, or text that Python's int() reads once a trailing ".0..." and
 * white space are dropped (a sign, surrounding space, underscores between digits); then the bounds.
 */
export function integer(min: number, max: number) {
  return (value: unknown): number => {
    if (value === null) throw problem('This field may not be null.');
    if (typeof value === 'string' && value.length > MAX_NUMBER_TEXT) throw problem('String value too large.');
    let number = NaN;
    if (typeof value === 'number') number = Number.isInteger(value) ? value : NaN;
    else if (typeof value === 'string') {
      const digits = pythonStrip(value.replace(new RegExp(`\\.0*[${PY_SPACE}]*$`), ''));
      if (/^[-+]?\d+(?:_\d+)*$/.test(digits)) number = Number(digits.replace(/_/g, ''));
    }
    if (Number.isNaN(number)) throw problem('A valid integer is required.');
    if (number < min) throw problem(`Ensure this value is greater than or equal to ${min}.`);
    if (number > max) throw problem(`Ensure this value is less than or equal to ${max}.`);
    return number;
  };
}

/** A value as Python's str() prints it (DRF puts it in its messages): True, None, ['a', 1], {'k': 'v'}. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(', ')}}`;
}

/** A UUID as DRF's UUIDField reads one (any of Python's spellings, or an integer), hex_verbose; undefined when invalid. */
export function readUuid(value: unknown): string | undefined {
  let hex: string | undefined;
  if (typeof value === 'number' || typeof value === 'boolean') {
    const n = BigInt(Number(value));
    if (Number.isInteger(Number(value)) && n >= 0n) hex = n.toString(16).padStart(32, '0');
  } else if (typeof value === 'string') {
    hex = value.replace('urn:', '').replace('uuid:', '').replace(/^\{+|\}+$/g, '').replace(/-/g, '');
  }
  if (hex === undefined || !/^[0-9a-fA-F]{32}$/.test(hex)) return undefined;
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** How a task serializer reads a form (see form.ts). */
export const TASK_FORM: FormSpec = {
  agent: { kind: 'text', nullable: true },
  prompt: { kind: 'text', nullable: true, blank: true },
  requires_vision: { kind: 'bool' },
  output_schema: { kind: 'json' },
  wait: { kind: 'text' },
  secrets: { kind: 'dict' },
  credits_cost: { kind: 'text', nullable: true },
  webhook: { kind: 'text', nullable: true },
};

export interface TaskChanges {
  /** The agent named in the body (a known id, lower-cased) or null; existence is checked by the caller. */
  agent?: string | null;
  prompt?: string | null;
  requires_vision?: boolean;
  output_schema?: unknown;
  wait?: number;
  secrets?: Record<string, unknown>;
  credits_cost?: string | null;
  webhook?: string | null;
}

/** The task serializer's field checks. `agentExists` says whether a browser-use agent id exists. */
export function checkTaskBody(body: Record<string, unknown>, agentExists: (id: string) => boolean): TaskChanges {
  return checkFields<TaskChanges>(body, {
    agent: (value) => {
      if (value === null || value === '') return null;
      const id = readUuid(value);
      if (id === undefined) throw problem('Must be a valid UUID.');
      if (!agentExists(id)) throw problem(`Invalid pk "${id}" - object does not exist.`);
      return id;
    },
    prompt: (value) => text(Number.POSITIVE_INFINITY, { nullable: true, blank: true })(value),
    requires_vision: boolean,
    output_schema: (value) => (value === null ? null : checkOutputSchema(value)),
    wait: checkWait,
    secrets: (value) => {
      if (value === null) throw problem('This field may not be null.');
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw problem(`Expected a dictionary of items but got type "${pythonTypeName(value)}".`);
      }
      const message = checkSecrets(value as Record<string, unknown>);
      if (message !== undefined) throw problem(message);
      return value as Record<string, unknown>;
    },
    credits_cost: checkCreditsCost,
    webhook: checkWebhook,
  });
}

const checkWait = integer(0, LIMITS.waitSeconds);

/** DRF's URLField (Django's URLValidator, which takes ftp too); then the serializer's validate_webhook asks for http or https. */
function checkWebhook(value: unknown): string | null {
  const url = text(Number.POSITIVE_INFINITY, { nullable: true })(value);
  if (url === null) return null;
  if (!isDjangoUrl(url)) throw problem('Enter a valid URL.');
  if (!/^https?:/i.test(url)) throw problem('webhook must use http or https.');
  return url;
}

/** The serializer's validate_output_schema (src/contract/output-schema.ts). */
function checkOutputSchema(value: unknown): unknown {
  const refused = outputSchemaProblem(value);
  if (refused !== undefined) throw problem(refused);
  return value;
}

/** DRF's DecimalField(max_digits=12, decimal_places=3, min_value=0.001), rendered with 3 decimals. */
function checkCreditsCost(value: unknown): string | null {
  // DecimalField.validate_empty_values: with allow_null, blank text is null too.
  if (value === null || (typeof value === 'string' && pythonStrip(value) === '')) return null;
  if (typeof value === 'boolean' || (typeof value !== 'string' && typeof value !== 'number')) throw problem('A valid number is required.');
  const stripped = pythonStrip(String(value));
  if (stripped.length > MAX_NUMBER_TEXT) throw problem('String value too large.');
  // Python's Decimal() takes underscores between digits (and refuses NaN and infinities here).
  const raw = stripped.replace(/(?<=\d)_(?=\d)/g, '');
  const match = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(raw);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw problem('A valid number is required.');
  // Python's Decimal keeps the digits as written: count them as DRF's validate_precision does.
  const digits = `${match[2]}${match[3] ?? ''}`.replace(/^0+(?=\d)/, '');
  const exponent = Number(match[4] ?? 0) - (match[3] ?? '').length;
  let total: number;
  let whole: number;
  let places: number;
  if (exponent >= 0) {
    total = digits.length + exponent;
    whole = total;
    places = 0;
  } else if (digits.length > -exponent) {
    total = digits.length;
    whole = total + exponent;
    places = -exponent;
  } else {
    total = -exponent;
    whole = 0;
    places = total;
  }
  if (total > 12) throw problem('Ensure that there are no more than 12 digits in total.');
  if (places > 3) throw problem('Ensure that there are no more than 3 decimal places.');
  if (whole > 9) throw problem('Ensure that there are no more than 9 digits before the decimal point.');
  const number = Number(raw);
  if (number < 0.001) throw problem('Ensure this value is greater than or equal to 0.001.');
  return number.toFixed(3);
}

/** How the browser-use agent serializer reads a form. */
export const AGENT_FORM: FormSpec = { name: { kind: 'text', required: true } };

export function checkAgentName(value: unknown, required: boolean): string | undefined {
  if (value === undefined) {
    if (required) throw fieldError('name', 'This field is required.');
    return undefined;
  }
  try {
    return text(LIMITS.legacyAgentName)(value) as string;
  } catch (error) {
    if (error instanceof FieldProblem) throw new HttpError(400, { name: error.detail });
    throw error;
  }
}

/** Python's name for a JSON value's type, as DRF's messages show it. */
export function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}
