// Generators for property tests (fast-check), shared so every parser is fed the same hostile text.
import fc from 'fast-check';

const hex = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''));
const hexString = (length: number) => fc.array(hex, { minLength: length, maxLength: length }).map((chars) => chars.join(''));

/** A well-formed UUID in any letter case. */
export const uuid = fc.tuple(hexString(8), hexString(4), hexString(4), hexString(4), hexString(12)).map((parts) => parts.join('-'));

/**
 * Any code point but a lone surrogate (0xD800-0xDFFF): what fast-check's `unit: 'binary'` gives,
 * without the ~3 s that building that one costs each test process (measured: most of the property
 * tests' import time).
 */
const SURROGATES = 0xe000 - 0xd800;
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + SURROGATES));

/** Text with the characters that break naive parsers: quotes, backslashes, controls, non-ASCII, surrogates. */
export const hostileText = fc.oneof(
  fc.string({ unit: anyCodePoint, maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '/', '\n', '\t', '\u0000', '\u2028', 'é', '😀', '<', '>', '&', '%', '+', ' ', 'a', '0'), maxLength: 24 }),
);

/** A secret worth protecting (agentctl ignores values shorter than 4 characters). */
export const secret = hostileText.filter((text) => text.length >= 4);

/** Any JSON value. */
export const json = fc.jsonValue({ maxDepth: 4 });

/** Decimal number text as a user types it: `2`, `0.5`, ` 10 `, `007`. */
export const decimalText = fc
  .tuple(fc.nat({ max: 1_000_000 }), fc.option(fc.nat({ max: 999 }), { nil: undefined }), fc.constantFrom('', ' '))
  .map(([whole, fraction, pad]) => `${pad}${whole}${fraction === undefined ? '' : `.${fraction}`}${pad}`);

/** A hostname other than the configured one. */
export const otherHost = fc.constantFrom('evil.example', 'evil.example:8787', '127.0.0.2:8787', '[::1]:9999', 'localhost:9', '10.0.0.1');

/**
 * A URL path as RFC 3986 writes one (`/seg/ment`, unreserved and sub-delims characters, `%XX`
 * escapes): what fast-check's webPath() gives, without the ~1.4 s of CPU its percent-encoding
 * tables cost each test process that builds one.
 */
const pathChar = fc.oneof(
  fc.constantFrom(...("abcxyzABCXYZ0189-._~!$&'()*+,;=:@").split('')),
  fc.tuple(hex, hex).map(([high, low]) => `%${high}${low}`),
);
export const webPath = fc
  .array(fc.array(pathChar, { maxLength: 8 }).map((chars) => chars.join('')), { maxLength: 4 })
  .map((segments) => segments.map((segment) => `/${segment}`).join(''));

/** An http(s) URL: any authority fast-check makes, then a path as above. */
export const webUrl = fc.tuple(fc.constantFrom('http', 'https'), fc.webAuthority(), webPath).map(([scheme, authority, path]) => `${scheme}://${authority}${path}`);

/** The ways people (and attackers) write "another host" where a path is expected. */
export const foreignReference = fc
  .tuple(
    fc.constantFrom('//', '\\\\', '\\/', '/\\', 'http://', 'https://', 'http:/', 'https:/', 'http:\\\\', 'https:\\/', '\t//', ' //', '\n\\\\', 'HTTPS://'),
    otherHost,
    webPath,
  )
  .map(([prefix, host, path]) => `${prefix}${host}${path}`);

/** An API path below the base: segments of safe characters, maybe a query. */
export const apiPath = fc
  .tuple(
    fc.constantFrom('', '/'),
    fc.array(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { minLength: 1, maxLength: 4 }),
    fc.boolean(),
    fc.option(fc.stringMatching(/^[a-z_]{1,8}=[a-z0-9]{0,8}$/), { nil: undefined }),
  )
  .map(([lead, segments, slash, query]) => `${lead}${segments.join('/')}${slash ? '/' : ''}${query ? `?${query}` : ''}`);
