import type { Route } from '../route-types.js';
import type { McpServices } from './context.js';
import { mcpView } from './view.js';

// POST /api/v1/mcp/ (api/urls.py "mcp/" -> GobiiMCPView).

export function remoteMcpRoute(services: McpServices, hostAllowed?: (host: string | undefined) => boolean): Route {
  return { pattern: /^\/mcp\/$/, methods: {}, serve: mcpView(services, (origin, host) => originAllowed(origin, host, hostAllowed)) };
}

/**
 * _origin_is_allowed: no Origin is fine (a program, not a page); otherwise an http(s) origin whose
 * host:port is the request's Host, or a name the deployment serves (ALLOWED_HOSTS, here the
 * emulator's host check; a server that answers every Host, as ALLOWED_HOSTS "*", trusts no origin by it).
 */
export function originAllowed(origin: string | undefined, host: string | undefined, hostAllowed?: (host: string | undefined) => boolean): boolean {
  if (!origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.host === '') return false;
  const netloc = /^https?:\/\/([^/?#]*)/i.exec(origin)?.[1]?.replace(/^[^@]*@/, '').toLowerCase() ?? '';
  if (netloc === (host ?? '').toLowerCase()) return true;
  return hostAllowed ? hostAllowed(netloc) : false;
}
