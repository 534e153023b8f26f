// How the debug trace hides secrets (api/services/agent_debug_trace.py sanitize_text,
// _sanitize_debug_value, _is_sensitive_key): credential-shaped text and secret-named keys become
// [REDACTED], long texts and lists are cut by the detail level, deep values flattened to text.

export const REDACTED = '[REDACTED]';
export type Detail = 'summary' | 'standard' | 'verbose';

const PATTERNS = [
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}\b/g,
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{12,}\b/g,
  /\bgh[pousr]_[A-Za-z0-9_]{20,}\b/g,
  /\bxox[baprs]-[A-Za-z0-9-]{10,}\b/g,
  /\bA(?:KIA|SIA)[A-Z0-9]{16}\b/g,
];
const ASSIGNMENT = /\b(api[_-]?key|access[_-]?token|refresh[_-]?token|id[_-]?token|bearer|authorization|password|passwd|secret|client[_-]?secret|private[_-]?key|cookie|set-cookie)\b\s*[:=]\s*([^\s,;]+)/gi;
const HIGH_ENTROPY = /\b(token|secret|password|api[_-]?key)\b\s*[:=]\s*[A-Za-z0-9_./+=-]{12,}/gi;
const SENSITIVE_KEYS = new Set([
  'api_key', 'apikey', 'x_api_key', 'authorization', 'auth', 'auth_header', 'bearer', 'password', 'passwd', 'secret', 'client_secret', 'private_key',
  'access_token', 'refresh_token', 'id_token', 'session_token', 'cookie', 'set_cookie', 'webhook_secret', 'token', 'key', 'credentials', 'credential',
]);
const SENSITIVE_ENDINGS = ['_api_key', '_access_token', '_refresh_token', '_secret', '_password', '_private_key'];

const stringLimit = (detail: Detail) => (detail === 'summary' ? 400 : detail === 'verbose' ? 4000 : 1200);

export function sanitizeText(value: unknown, detail: Detail): string {
  let text = value === null || value === undefined || value === false || value === '' ? '' : String(value);
  if (text === '') return '';
  for (const pattern of PATTERNS) text = text.replace(pattern, REDACTED);
  text = text.replace(ASSIGNMENT, (_match, name: string) => `${name}=${REDACTED}`);
  text = text.replace(HIGH_ENTROPY, (_match, name: string) => `${name}=${REDACTED}`);
  const limit = stringLimit(detail);
  return text.length > limit ? `${text.slice(0, limit - 15)}...[truncated]` : text;
}

export function isSensitiveKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return SENSITIVE_KEYS.has(normalized) || SENSITIVE_ENDINGS.some((ending) => normalized.endsWith(ending));
}

export function sanitizeValue(value: unknown, detail: Detail, depth = 0): unknown {
  if (depth > 5) return sanitizeText(typeof value === 'object' ? JSON.stringify(value) : value, 'summary');
  if (value === null || value === undefined || typeof value === 'boolean' || typeof value === 'number') return value ?? null;
  if (typeof value === 'string') return sanitizeText(value, detail);
  if (Array.isArray(value)) {
    const itemLimit = detail === 'summary' ? 10 : detail === 'standard' ? 25 : 50;
    const items = value.slice(0, itemLimit).map((item) => sanitizeValue(item, detail, depth + 1));
    return value.length > itemLimit ? [...items, { truncated: value.length - itemLimit }] : items;
  }
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isSensitiveKey(key) ? REDACTED : sanitizeValue(item, detail, depth + 1)]));
  }
  return sanitizeText(value, detail);
}
