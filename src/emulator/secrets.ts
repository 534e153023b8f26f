import { SERVICE_LIMITS as LIMITS } from '../contract/limits.js';

// The service's checks of task secrets (`{"<domain pattern>": {"<KEY>": "<value>"}}`), in its order
// and words: the first problem found is the one message of the 400 `{"secrets": [message]}`.

const FORBIDDEN = ['../', '..\\', 'javascript:', 'data:', 'vbscript:', 'file://', 'ftp://', 'ldap://', 'gopher://', 'dict://', 'php://', 'expect://', '\x00', '\r', '\n', '\t'];
const VALUE_FORBIDDEN = ['\x00', '\r\n\r\n', 'HTTP/'];
const SUSPICIOUS = [/(union|select|insert|update|delete|drop|create|alter|exec|execute)/i, /(script|javascript|vbscript)/i, /(<|>|&lt;|&gt;)/i, /(eval|function|constructor)/i];
const XSS = [/<script/i, /javascript:/i, /on\w+\s*=/i, /expression\s*\(/i];
const KEY = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const MAX_PATTERN = 256;
const MIN_PATTERN = 3;
const TOO_LARGE = `Total secrets size too large (max ${LIMITS.secretsTotalBytes} bytes)`;
/**
 * How deep the service's json.dumps goes before its RecursionError (the C encoder of Python 3.13,
 * the service's image: the interpreter's C recursion limit, about 10,000 levels, less what the
 * request's own frames use), which the serializer's catch-all turns into a 400. Deeper secrets are
 * refused with that message, not measured.
 */
export const SECRETS_ENCODE_DEPTH = 9_900;

/** The first problem of `secrets` (a JSON object), or undefined when the service accepts them. */
export function checkSecrets(secrets: Record<string, unknown>): string | undefined {
  // json.dumps fails on a nesting too deep for it: the catch-all says so (api/serializers.py, validate_secrets).
  const tooDeep = tooDeepContainer(secrets);
  if (tooDeep) return `Invalid secrets format: maximum recursion depth exceeded while encoding a JSON ${tooDeep}`;
  // The serializer raises its own size error inside a catch-all that wraps it once more.
  if (pythonJsonBytes(secrets) > LIMITS.secretsTotalBytes) return `Invalid secrets format: [ErrorDetail(string='${TOO_LARGE}', code='invalid')]`;
  const domains = Object.entries(secrets);
  if (domains.length === 0) return 'Secrets dictionary cannot be empty';
  const first = domains[0]?.[1];
  if (typeof first !== 'object' || first === null || Array.isArray(first)) {
    return "Secrets must be in domain-specific format. Use: {'https://example.com': {'x_api_key': 'value'}} instead of: {'x_api_key': 'value'}";
  }
  const count = domains.reduce((sum, [, pairs]) => sum + pythonLength(pairs), 0);
  if (count > LIMITS.secrets) return `Maximum ${LIMITS.secrets} secrets allowed per agent`;
  if (domains.length > LIMITS.secretDomains) return `Maximum ${LIMITS.secretDomains} domains allowed per agent`;
  for (const [domain, pairs] of domains) {
    const problem = domainProblem(domain);
    if (problem) return problem;
    if (typeof pairs !== 'object' || pairs === null || Array.isArray(pairs)) return `Secrets for domain '${domain}' must be a dictionary`;
    const entries = Object.entries(pairs);
    if (entries.length === 0) return `Secrets for domain '${domain}' cannot be empty`;
    for (const [key, value] of entries) {
      if (typeof value !== 'string') return `All secret keys and values must be strings in domain '${domain}'`;
      const keyProblem = secretKeyProblem(key) ?? secretValueProblem(value);
      if (keyProblem) return keyProblem;
    }
  }
  return undefined;
}

/** Why a domain pattern is refused (browser_use's rules as the service applies them). */
function domainProblem(raw: string): string | undefined {
  const pattern = raw.trim();
  if (raw === '') return 'Domain pattern must be a non-empty string';
  if (pattern === '') return 'Domain pattern cannot be empty';
  const length = [...pattern].length;
  if (length > MAX_PATTERN) return `Domain pattern too long (max ${MAX_PATTERN} characters)`;
  if (length < MIN_PATTERN) return `Domain pattern too short (min ${MIN_PATTERN} characters)`;
  const lower = pattern.toLowerCase();
  const forbidden = FORBIDDEN.find((part) => lower.includes(part));
  if (forbidden !== undefined) return `Domain pattern contains forbidden substring: ${forbidden}`;
  if ([...SUSPICIOUS, ...XSS].some((regex) => regex.test(lower))) return 'Domain pattern contains suspicious content';
  const domain = pattern.includes('://') ? pattern.slice(pattern.indexOf('://') + 3) : pattern;
  if (/\.\*$/.test(domain)) return 'Wildcards in TLD part are not allowed (e.g., google.* would match google.ninja)';
  if (/^\*\.[^.]+$/.test(domain)) return 'Wildcards in TLD part are not allowed (e.g., *.com would match any .com domain)';
  if (/[^/]\*[^/]/.test(pattern)) return 'Embedded wildcards are not supported (e.g., g*e.com)';
  if ((pattern.match(/\*/g) ?? []).length > 1) return 'Multiple wildcards like *.*.domain are not supported';
  if (pattern.includes('://')) {
    const protocol = pattern.slice(0, pattern.indexOf('://'));
    if (!['http', 'https', 'http*', 'chrome-extension'].includes(protocol)) {
      return `Invalid protocol '${protocol}'. Only http, https, http*, and chrome-extension are supported`;
    }
  }
  if (pattern === 'chrome-extension://') return 'Chrome extension ID cannot be empty';
  return undefined;
}

function secretKeyProblem(key: string): string | undefined {
  if ([...key].length > LIMITS.secretKeyLength) return `Secret key too long (max ${LIMITS.secretKeyLength} characters)`;
  if (key.trim() === '') return 'Secret key cannot be empty';
  if (!KEY.test(key)) return 'Secret key must be alphanumeric with underscores only';
  const lower = key.toLowerCase();
  const forbidden = FORBIDDEN.find((part) => lower.includes(part));
  if (forbidden !== undefined) return `Secret key contains forbidden substring: ${forbidden}`;
  if (SUSPICIOUS.some((regex) => regex.test(lower))) return 'Secret key contains suspicious pattern';
  return undefined;
}

function secretValueProblem(value: string): string | undefined {
  if (Buffer.byteLength(value) > LIMITS.secretValueBytes) return `Secret value too large (max ${LIMITS.secretValueBytes} bytes)`;
  if (value.trim() === '') return 'Secret value cannot be empty';
  if (VALUE_FORBIDDEN.some((part) => value.includes(part))) return 'Secret value contains forbidden content';
  return undefined;
}

/** Python's len() of a JSON value (0 for scalars the service would fail on later anyway). */
function pythonLength(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return 0;
}

/**
 * The kind ('object' or 'array') of the first container json.dumps would meet deeper than
 * SECRETS_ENCODE_DEPTH, in its order (depth first, keys in order); undefined when none is. A walk
 * with a list of its own, not recursion: a nesting deep enough would overflow this stack too.
 */
function tooDeepContainer(value: unknown): 'object' | 'array' | undefined {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (depth > SECRETS_ENCODE_DEPTH) return Array.isArray(item) ? 'array' : 'object';
    const children = Array.isArray(item) ? item : Object.values(item);
    for (let i = children.length - 1; i >= 0; i--) pending.push([children[i], depth + 1]);
  }
  return undefined;
}

/** The size of what Python's json.dumps writes (", " and ": " separators, non-ASCII escaped): what the service measures. */
function pythonJsonBytes(value: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') bytes += asciiJson(item).length;
    else if (typeof item !== 'object' || item === null) bytes += JSON.stringify(item).length;
    else {
      const entries = Array.isArray(item) ? item.map((one) => [undefined, one] as const) : Object.entries(item);
      bytes += 2 + Math.max(0, entries.length - 1) * 2; // brackets, then ", " between
      for (const [key, one] of entries) {
        if (key !== undefined) bytes += asciiJson(key).length + 2; // "key": 
        pending.push(one);
      }
    }
  }
  return bytes;
}

function asciiJson(text: string): string {
  return JSON.stringify(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
