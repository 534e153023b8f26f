// Where a request goes. Every path and link is resolved with the WHATWG URL parser (the one the
// request itself uses) against the configured base, and anything that lands on another origin is
// refused, so the API key is only ever sent to the host the user configured. Guessing from the text
// ("starts with http") misses `\\host/x`, `\/host`, `https:/host` and tab-prefixed forms.

import { clearTextHost } from '../contract/url.js';
import { InsecureHttpError } from './errors.js';

export type Resolved = { ok: true; url: URL } | { ok: false; reason: string };

/** The base URL with exactly one trailing slash, so relative paths land below its version segment. */
export function apiBase(baseUrl: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}/`);
}

/**
 * Throws InsecureHttpError when a request to `base` would carry the API key in clear text (plain
 * http:// to a host that is not this machine). The one check of every face: the client calls it
 * before it sends anything, `auth login` before it asks for a key. `how` says how to allow it.
 */
export function refuseClearText(base: URL | string, how = 'use an https:// base URL'): void {
  const host = clearTextHost(typeof base === 'string' ? new URL(base) : base);
  if (host !== undefined) throw new InsecureHttpError(host, how);
}

/**
 * An API path (`/tasks/browser-use/`, `tasks/x?page=2`) or an absolute URL, resolved against the
 * base. Paths are relative to the base's path (a leading slash does not climb to the host root) and
 * get the trailing slash the service's routes need; absolute URLs are kept as they are.
 */
export function resolveApiPath(base: URL, pathOrUrl: string): Resolved {
  // As the parser reads it first: `//host/x` is another host even though we then read paths below the base.
  const raw = resolveAgainst(base, pathOrUrl, base);
  if (!raw.ok || URL.canParse(pathOrUrl)) return raw;
  const resolved = resolveAgainst(base, pathOrUrl.replace(/^\/+/, ''), base);
  if (!resolved.ok) return resolved;
  const { url } = resolved;
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return resolved;
}

/** A link the service sent (a page's `next`), resolved against the page it came from. */
export function resolveLink(base: URL, link: string, from: URL = base): Resolved {
  return resolveAgainst(base, link, from);
}

function resolveAgainst(base: URL, input: string, from: URL): Resolved {
  let url: URL;
  try {
    url = new URL(input, from);
  } catch {
    return { ok: false, reason: `"${input}" is not a valid URL or path` };
  }
  if (url.origin !== base.origin || url.origin === 'null') {
    return { ok: false, reason: `"${input}" points to ${url.origin === 'null' ? url.protocol : url.origin}, not ${base.origin}` };
  }
  url.hash = '';
  return { ok: true, url };
}

/**
 * An id as one path segment: percent-encoded, so an id the service made up (`../../agents/x`, `a?b`,
 * `a#b`) stays one segment below its route and never climbs out of it. `.` and `..` are dot segments
 * even encoded (the URL parser reads `%2e%2e` as `..`): refused, as is an empty id.
 */
export function pathSegment(id: string): string {
  const segment = encodeURIComponent(id);
  if (segment === '' || /^(\.|%2e){1,2}$/i.test(segment)) throw new IdSegmentError(id);
  return segment;
}

/** An id that cannot be a path segment (empty, `.` or `..`). */
export class IdSegmentError extends Error {
  readonly exitCode = 1 as const;
  constructor(id: string) {
    super(`"${id}" is not an id agentctl can put in a URL`);
    this.name = 'IdSegmentError';
  }
}
