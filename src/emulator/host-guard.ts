// Which Host headers an emulator on a loopback address answers. A web page of any site can make the
// browser of a developer send requests to 127.0.0.1 through DNS rebinding (its own name made to
// resolve to 127.0.0.1): the requests then carry that site's name in Host. The emulator's default
// key is public and its webhooks reach any address, so on a loopback bind only loopback names are
// answered (and names the user allows); others get 421. The port is not checked: a browser writes a
// loopback name only for a URL that names one (no rebinding there), and a local proxy in front (a
// gateway, a fault injector) keeps its own port.
// A wider bind (--host 0.0.0.0) is the user's choice to be reached by any name: not checked.
import { isLoopbackHost, isThisMachine } from '../contract/url.js';

/** A Host header's name (lowercase; an IPv6 address in brackets) and port (undefined when absent); undefined when malformed. */
export function splitHost(header: string): { name: string; port?: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!match) return undefined;
  const name = (match[1] as string).toLowerCase();
  return match[2] === undefined ? { name } : { name, port: Number(match[2]) };
}

/**
 * The check for an emulator bound to `bindHost`: undefined when it is not a loopback address. The
 * check takes a request's Host header (absent only from an HTTP/1.0 client, never a browser).
 * `allowed` are more names (`name`: with any port; `name:port`: that port only).
 */
export function hostGuard(bindHost: string, allowed: readonly string[] = []): ((host: string | undefined) => boolean) | undefined {
  if (!isLoopbackHost(bindHost.toLowerCase())) return undefined;
  const extra = allowed.map((entry) => splitHost(entry)).filter((entry) => entry !== undefined);
  return (header) => {
    if (header === undefined) return true;
    const host = splitHost(header);
    if (!host) return false;
    // A name no other machine can send (a DNS name a page rebinds is never one): loopback, 0.0.0.0, ::.
    if (isThisMachine(host.name)) return true;
    // A Host without a port names port 80.
    return extra.some((entry) => entry.name === host.name && (entry.port === undefined || entry.port === (host.port ?? 80)));
  };
}

/** The 421 body: why, and how to let another name in. */
export function hostRefusal(header: string): { detail: string } {
  return {
    detail:
      `Host ${JSON.stringify(header.slice(0, 200))} is not a loopback name: an emulator on a loopback address answers only localhost, 127.x.x.x or [::1] ` +
      '(a page of another site can reach it through DNS rebinding). To accept another name, start it with --allowed-host NAME (allowedHosts in the library).',
  };
}
