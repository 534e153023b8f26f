// "Is this an http(s) URL?" asked in one place (webhooks, base URLs, forward targets, the emulator).

/** The parsed URL when `value` is an absolute http:// or https:// URL; otherwise why not. */
export function parseHttpUrl(value: string): { url: URL } | { reason: 'invalid' | 'scheme'; protocol?: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { reason: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { reason: 'scheme', protocol: url.protocol };
  return { url };
}

export const isHttpUrl = (value: string): boolean => 'url' in parseHttpUrl(value);

/** A host name on this machine (localhost, 127.x.x.x, ::1, with or without IPv6 brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * An address a connection to which never leaves this machine: loopback, the unspecified addresses
 * (0.0.0.0 and ::, which `agentctl emulator --host 0.0.0.0` prints; a connection to them reaches this
 * machine or fails) and IPv4-mapped loopback (::ffff:127.0.0.1, which the URL parser writes ::ffff:7f00:1).
 */
export function isThisMachine(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return isLoopbackHost(host) || host === '0.0.0.0' || host === '::' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/**
 * The host a base URL would send the API key to in clear text, readable on every network on the
 * way: plain http:// to a host that is not this machine. Undefined for https:// and for this
 * machine (the emulator, a self-hosted service at http://localhost:8000).
 */
export function clearTextHost(url: URL): string | undefined {
  return url.protocol === 'http:' && !isThisMachine(url.hostname) ? url.host : undefined;
}

/** The hosts of the hosted service, which closed on 2026-09-01: users run gobii-platform themselves. */
export const CLOSED_SERVICE_HOSTS = ['gobii.ai', 'getgobii.com'] as const;

/**
 * The closed host `hostname` is (or is below), else undefined: told from the name alone, before any
 * lookup or connection, so the answer is "that service closed", not a DNS or TLS error.
 */
export function closedServiceHost(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return CLOSED_SERVICE_HOSTS.find((closed) => host === closed || host.endsWith(`.${closed}`));
}
