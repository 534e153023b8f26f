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
 * The host a base URL would send the API key to in clear text, readable on every network on the
 * way: plain http:// to a host that is not this machine. Undefined for https:// and for loopback
 * (the emulator, a self-hosted service at http://localhost:8000).
 */
export function clearTextHost(url: URL): string | undefined {
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? url.host : undefined;
}
