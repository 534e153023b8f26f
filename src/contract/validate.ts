import { isUuid } from './ids.js';
import { LIMITS } from './limits.js';
import { parseHttpUrl } from './url.js';
import { UsageError } from '../errors.js';
import type { Secrets } from '../api/schemas/task.js';

// Client-side checks of the spec's limits, run before any request so mistakes cost no round trip.

export { isUuid };

export { LIMITS };

export function checkUuid(value: string, what: string): string {
  if (!isUuid(value)) {
    throw new UsageError(`${what} "${value}" is not a UUID`, 'ids look like 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f');
  }
  return value.toLowerCase();
}

/** The longest API key taken (characters). */
export const MAX_API_KEY_LENGTH = 4096;

/**
 * An API key as given (flag, environment, file, stdin, config): surrounding whitespace dropped (a
 * secret stored with a trailing newline is common in CI), then one word of printable ASCII, which is
 * all an HTTP header carries. `from` says where it came from, for the message.
 */
export function checkApiKey(value: string, from: string): string {
  const key = value.trim();
  if (key === '') throw new UsageError(`the API key from ${from} is empty`);
  // A header this long is refused by every server, and would be sent (and blamed on the network) first.
  if (key.length > MAX_API_KEY_LENGTH) throw new UsageError(`the API key from ${from} is ${key.length} characters long: an API key is one short line (at most ${MAX_API_KEY_LENGTH})`);
  if (/[^\x21-\x7e]/.test(key)) throw new UsageError(`the API key from ${from} must be a single line with no spaces or control characters`);
  return key;
}

/** Parses an integer flag within bounds, e.g. --wait 0..1350 or --page-size 1..100. */
export function parseIntegerFlag(value: string, flag: string, min: number, max: number): number {
  if (!/^\s*-?\d+\s*$/.test(value)) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  const number = Number(value);
  // A flag with no upper bound of its own (--page) has MAX_SAFE_INTEGER as one: not worth naming.
  const range = max >= Number.MAX_SAFE_INTEGER ? `${min} or more` : `between ${min} and ${max}`;
  if (number < min || number > max) throw new UsageError(`${flag} must be ${range}, got ${Number.isSafeInteger(number) ? number : value.trim()}`);
  return number;
}

/** Parses a duration flag in seconds (decimals allowed), e.g. --interval 0.5. */
export function parseSecondsFlag(value: string, flag: string, min = 0, max = 7 * 24 * 3600): number {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value)) throw new UsageError(`${flag} must be a number of seconds, got "${value}"`);
  const number = Number(value);
  if (number < min || number > max) throw new UsageError(`${flag} must be between ${min} and ${max} seconds, got ${number}`);
  return number;
}

const CREDITS_COST = /^-?\d{0,9}(?:\.\d{0,3})?$/;

/** A credits cost as the service takes it; `what` is how the face names the field (a flag, a record's key). */
export function checkCreditsCost(value: string, what = 'credits_cost'): string {
  if (!CREDITS_COST.test(value) || !/\d/.test(value)) {
    throw new UsageError(
      `${what} "${value}" is not a decimal with up to 9 integer and 3 fractional digits`,
      'for example 0.4, 12 or -1.250',
    );
  }
  return value;
}

/** An absolute http(s) URL, or a usage error naming the flag. */
export function checkHttpUrl(value: string, flag: string): URL {
  const parsed = parseHttpUrl(value);
  if ('url' in parsed) return parsed.url;
  if (parsed.reason === 'invalid') throw new UsageError(`${flag} "${value}" is not a URL`, 'use an http:// or https:// address');
  throw new UsageError(`${flag} must be an http:// or https:// URL, got ${parsed.protocol}`);
}

/** A webhook URL; `what` is how the face names the field (a flag, a record's key). */
export function checkWebhookUrl(value: string, what = 'webhook'): string {
  checkHttpUrl(value, what);
  return value;
}

const SECRET_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

const ownProperty = (target: object, name: string, value: unknown) =>
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });

/**
 * Adds one secret to `secrets`, a later value for the same domain and key replacing the earlier.
 * Domains and keys become own properties whatever they are called: `secrets["__proto__"] = ...`
 * would set the object's prototype instead, and the domain would silently not be sent.
 */
export function addSecret(secrets: Secrets, domain: string, key: string, value: string): void {
  if (!Object.hasOwn(secrets, domain)) ownProperty(secrets, domain, {});
  ownProperty(secrets[domain]!, key, value);
}

/** Checks the nested secrets shape and the service's limits; returns the same object. */
export function checkSecrets(secrets: unknown, source = 'secrets'): Secrets {
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
    throw new UsageError(`${source} must be an object like {"https://example.com": {"PASSWORD": "..."}}`);
  }
  const domains = Object.entries(secrets);
  if (domains.length > LIMITS.secretDomains) {
    throw new UsageError(`${source}: ${domains.length} domains; the limit is ${LIMITS.secretDomains}`);
  }
  let count = 0;
  let total = 0;
  // Domains and keys are named by position, never quoted: the text may be a file given by mistake
  // (a config file, /etc/passwd), and a message is no place to show its contents.
  for (const [d, [domain, pairs]] of domains.entries()) {
    const where = `domain ${d + 1} of ${domains.length}`;
    if (domain.trim() === '') throw new UsageError(`${source}: ${where} is empty`);
    if (typeof pairs !== 'object' || pairs === null || Array.isArray(pairs)) {
      throw new UsageError(`${source}: the value of ${where} must be an object of KEY: value pairs`, 'e.g. {"https://example.com": {"PASSWORD": "..."}}');
    }
    const keys = Object.entries(pairs);
    for (const [k, [key, value]] of keys.entries()) {
      const which = `key ${k + 1} of ${keys.length} of ${where}`;
      if (!SECRET_KEY.test(key) || key.length > LIMITS.secretKeyLength) {
        throw new UsageError(
          `${source}: ${which} is not a secret key`,
          `keys start with a letter or _, then letters, digits or _, at most ${LIMITS.secretKeyLength} characters`,
        );
      }
      if (typeof value !== 'string') throw new UsageError(`${source}: the value of ${which} must be a string`);
      const bytes = Buffer.byteLength(value);
      if (bytes > LIMITS.secretValueBytes) {
        throw new UsageError(`${source}: the value of ${which} is ${bytes} bytes; the limit is 4 KB`);
      }
      count++;
      total += bytes;
    }
  }
  if (count > LIMITS.secrets) throw new UsageError(`${source}: ${count} secrets; the limit is ${LIMITS.secrets}`);
  if (total > LIMITS.secretsTotalBytes) throw new UsageError(`${source}: ${total} bytes in all; the limit is 100 KB`);
  return secrets as Secrets;
}

/** Splits `KEY=VALUE` (the value may contain `=`). */
export function splitPair(pair: string, flag: string, valueName = 'VALUE'): [string, string] {
  const index = pair.indexOf('=');
  // The text may be a secret typed in the wrong place, so it is never echoed back.
  if (index <= 0) throw new UsageError(`${flag} needs KEY=${valueName} (the key, an equals sign, then the ${valueName.toLowerCase()})`);
  return [pair.slice(0, index), pair.slice(index + 1)];
}
