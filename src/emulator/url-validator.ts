import { isIPv6 } from 'node:net';

// Django's URLValidator (django/core/validators.py), which DRF's URLField runs, in our own words:
// http, https, ftp or ftps; a host that is a domain with a top-level label, `localhost`, an IPv4
// address or a bracketed IPv6 one; an optional port and user; no white space anywhere; at most
// 2,048 characters, the host at most 253. Much stricter than the WHATWG URL parser (which takes
// `http://intranet`, `http:/x.example` or a space in the path).

const LETTER = 'a-z\\u00a1-\\uffff';
const IPV4_PART = '(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)';
const IPV4 = `${IPV4_PART}(?:\\.${IPV4_PART}){3}`;
const IPV6 = '\\[[0-9a-f:.]+\\]';
const HOSTNAME = `[${LETTER}0-9](?:[${LETTER}0-9-]{0,61}[${LETTER}0-9])?`;
const DOMAIN = `(?:\\.(?!-)[${LETTER}0-9-]{1,63}(?<!-))*`;
const TLD = `\\.(?!-)(?:[${LETTER}-]{2,63}|xn--[a-z0-9]{1,59})(?<!-)\\.?`;
const HOST = `(?:${HOSTNAME}${DOMAIN}${TLD}|localhost)`;
const URL_PATTERN = new RegExp(`^(?:[a-z0-9.+-]*)://(?:[^\\s:@/]+(?::[^\\s:@/]*)?@)?(?:${IPV4}|${IPV6}|${HOST})(?::[0-9]{1,5})?(?:[/?#][^\\s]*)?$`, 'i');
const SCHEMES = new Set(['http', 'https', 'ftp', 'ftps']);
const MAX_LENGTH = 2048;
const MAX_HOST_LENGTH = 253;

/** Whether Django's URLValidator accepts `value` (a URLField's "Enter a valid URL." otherwise). */
export function isDjangoUrl(value: string): boolean {
  if (value.length > MAX_LENGTH || /[\t\r\n]/.test(value)) return false;
  if (!SCHEMES.has((value.split('://')[0] as string).toLowerCase())) return false;
  if (!URL_PATTERN.test(value)) return false;
  const netloc = (value.slice(value.indexOf('://') + 3).split(/[/?#]/)[0] as string).replace(/^.*@/, '');
  const bracketed = /^\[(.+)\](?::[0-9]{1,5})?$/.exec(netloc);
  if (bracketed) return isIPv6(bracketed[1] as string);
  return netloc.replace(/:[0-9]{1,5}$/, '').length <= MAX_HOST_LENGTH;
}
