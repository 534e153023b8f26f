// The few Python built-ins whose exact behaviour decides the service's schedule verdicts and texts
// (its parser and cron-descriptor are Python): str.split()/strip() whitespace, int(), isdigit(),
// repr() and str.format(). Only as much of each as those callers reach.

// str.isspace(): ASCII whitespace plus \x1c-\x1f, \x85 and Unicode's separators (not JavaScript's \s,
// which lacks \x1c-\x1f and \x85 and adds \ufeff).
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPACES = new RegExp(`[${SPACE}]+`, 'u');
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'gu');
export const PY_SPACE = SPACE;

/** str.strip(). */
export function pyStrip(text: string): string {
  return text.replace(EDGES, '');
}

/** str.split() without arguments: on runs of whitespace, no empty items. */
export function pySplit(text: string): string[] {
  const stripped = pyStrip(text);
  return stripped === '' ? [] : stripped.split(SPACES);
}

/** A decimal digit's value (Unicode Nd digits come in runs of ten, 0 to 9). */
function digitValue(char: string): number {
  if (char >= '0' && char <= '9') return char.charCodeAt(0) - 48;
  let code = char.codePointAt(0)!;
  let count = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(code - 1))) {
    code--;
    count++;
  }
  return count % 10;
}

/** Only ASCII digits: int() of them is plain (the Unicode digit rules below need not run). */
export const ASCII_DIGITS = /^[0-9]+$/;

/** int(text) for a str in base 10, or null where Python raises ValueError. */
export function pyInt(text: string): bigint | null {
  if (ASCII_DIGITS.test(text)) return BigInt(text);
  const body = pyStrip(text);
  const match = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(body);
  if (!match) return null;
  let value = 0n;
  for (const char of match[2]!.replaceAll('_', '')) value = value * 10n + BigInt(digitValue(char));
  return match[1] === '-' ? -value : value;
}

// Characters Python's isdigit() accepts beyond decimal digits (superscripts, circled and similar
// digits), which int() then refuses: the common ones.
const OTHER_DIGITS = /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u1369-\u1371\u19da]/u;

/** str.isdigit(). */
export function pyIsDigit(text: string): boolean {
  return text !== '' && [...text].every((char) => /\p{Nd}/u.test(char) || OTHER_DIGITS.test(char));
}

/** Python's `\w` in a str pattern: letters, numbers and the underscore. */
export const PY_WORD = '[\\p{L}\\p{N}_]';

/** repr() of a str. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char !== ' ' && /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(char)) out += escapeCode(char.codePointAt(0)!);
    else out += char;
  }
  return out + quote;
}

function escapeCode(code: number): string {
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Where Python's str.format() raises (a field it cannot fill, a lone brace). */
export class FormatFailure extends Error {}

/**
 * str.format(*args) for the templates cron-descriptor formats: `{}`/`{0}`/`{1}` fields and doubled
 * braces. Any other field (a name, an attribute, a spec) fails, as it would there for these args.
 */
export function pyFormat(template: string, ...args: string[]): string {
  let out = '';
  let auto = 0;
  for (let index = 0; index < template.length; index++) {
    const char = template[index]!;
    if (char === '}') {
      if (template[index + 1] !== '}') throw new FormatFailure("Single '}' encountered in format string");
      out += '}';
      index++;
    } else if (char === '{') {
      if (template[index + 1] === '{') {
        out += '{';
        index++;
        continue;
      }
      const end = template.indexOf('}', index);
      if (end < 0) throw new FormatFailure("Single '{' encountered in format string");
      out += field(template.slice(index + 1, end), args, () => auto++);
      index = end;
    } else {
      out += char;
    }
  }
  return out;
}

function field(name: string, args: readonly string[], next: () => number): string {
  const conversion = /^(\d*)(?:!s)?:?$/.exec(name);
  if (!conversion) throw new FormatFailure(`unsupported format field {${name}}`);
  const position = conversion[1] === '' ? next() : Number(conversion[1]);
  const value = args[position];
  if (value === undefined) throw new FormatFailure('Replacement index out of range');
  return value;
}
