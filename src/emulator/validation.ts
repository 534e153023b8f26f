import { SERVICE_LIMITS as LIMITS } from '../contract/limits.js';
import { isHttpUrl } from '../contract/url.js';
import { fieldError } from './http.js';

// The service's checks of a task body, answering in its error shapes (one list of messages per field).

const SECRET_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const CREDITS = /^-?\d{0,9}(?:\.\d{0,3})?$/;

export function checkPrompt(value: unknown): string | null {
  if (value === null || typeof value === 'string') return value;
  throw fieldError('prompt', 'Not a valid string.');
}

export function checkWait(value: unknown): number {
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) throw fieldError('wait', 'A valid integer is required.');
  if (number < 0) throw fieldError('wait', 'Ensure this value is greater than or equal to 0.');
  if (number > LIMITS.waitSeconds) throw fieldError('wait', `Ensure this value is less than or equal to ${LIMITS.waitSeconds}.`);
  return number;
}

export function checkWebhook(value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value === 'string' && isHttpUrl(value)) return value;
  throw fieldError('webhook', 'Enter a valid URL.');
}

export function checkOutputSchema(value: unknown): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value !== 'object' || Array.isArray(value)) throw fieldError('output_schema', 'Invalid JSON Schema: the schema must be an object or a boolean.');
  let keys = 0;
  const walk = (node: unknown, depth: number): void => {
    if (depth > LIMITS.outputSchemaDepth) throw fieldError('output_schema', `Invalid JSON Schema: nesting deeper than ${LIMITS.outputSchemaDepth} levels.`);
    if (typeof node !== 'object' || node === null) return;
    for (const child of Object.values(node)) {
      if (!Array.isArray(node) && ++keys > LIMITS.outputSchemaKeys) throw fieldError('output_schema', `Invalid JSON Schema: more than ${LIMITS.outputSchemaKeys} keys.`);
      walk(child, depth + 1);
    }
  };
  walk(value, 1);
  const type = (value as Record<string, unknown>).type;
  const known = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
  if (type !== undefined && !(typeof type === 'string' ? known.includes(type) : Array.isArray(type))) {
    throw fieldError('output_schema', `Invalid JSON Schema: ${JSON.stringify(type)} is not a valid type.`);
  }
  return value;
}

/** Secrets: `{"<domain>": {"<KEY>": "<value>"}}`; any problem is one message in the service's flat list shape. */
export function checkSecrets(value: unknown): Record<string, Record<string, string>> {
  const fail = (message: string) => fieldError('secrets', message);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('Expected a dictionary of domains.');
  const domains = Object.entries(value);
  if (domains.length > LIMITS.secretDomains) throw fail(`At most ${LIMITS.secretDomains} domains are allowed.`);
  let count = 0;
  let total = 0;
  for (const [domain, pairs] of domains) {
    if (typeof pairs !== 'object' || pairs === null || Array.isArray(pairs)) throw fail(`Secrets for ${domain} must be a dictionary of secrets.`);
    for (const [key, secret] of Object.entries(pairs)) {
      if (!SECRET_KEY.test(key)) throw fail(`Invalid secret key "${key}" for ${domain}.`);
      if (typeof secret !== 'string') throw fail(`The value of ${key} for ${domain} must be a string.`);
      if (Buffer.byteLength(secret) > LIMITS.secretValueBytes) throw fail(`The value of ${key} for ${domain} is longer than 4 KB.`);
      count++;
      total += Buffer.byteLength(secret);
    }
  }
  if (count > LIMITS.secrets) throw fail(`At most ${LIMITS.secrets} secrets are allowed.`);
  if (total > LIMITS.secretsTotalBytes) throw fail('Secrets may hold at most 100 KB in total.');
  return value as Record<string, Record<string, string>>;
}

export function checkCreditsCost(value: unknown): string | null {
  if (value === null) return null;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !CREDITS.test(text) || !/\d/.test(text)) {
    throw fieldError('credits_cost', 'Ensure that there are no more than 9 digits before the decimal point and 3 after it.');
  }
  return Number(text).toFixed(3);
}

export function checkAgentName(value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw fieldError('name', 'This field is required.');
    return undefined;
  }
  if (typeof value !== 'string') throw fieldError('name', 'Not a valid string.');
  if (value.trim() === '') throw fieldError('name', 'This field may not be blank.');
  if ([...value].length > LIMITS.legacyAgentName) throw fieldError('name', `Ensure this field has no more than ${LIMITS.legacyAgentName} characters.`);
  return value;
}
