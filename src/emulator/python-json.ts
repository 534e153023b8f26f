// Python's json module, as far as the service's answers show it: the words and position of a
// parse error (CPython 3.13's json.decoder, which the service runs: its messages, and a position
// counted in code points as "line L column C (char N)"), and json.dumps(value, indent=2,
// sort_keys=True) for a payload the service echoes as text. JSON.parse reads every body that
// parses; this scanner runs only for one that does not, and for the inbound webhook's payload.

/** A number as its JSON text: Python keeps an int exact and prints a float as repr() does. */
export class PyNumber {
  constructor(readonly text: string) {}
}

/** An object in the order its keys came (the last value of a repeated key wins). */
export class PyObject {
  constructor(readonly entries: Map<string, PyValue>) {}
}

export type PyValue = null | boolean | string | PyNumber | PyObject | PyValue[];

/** A failure as Python words it: `str(JSONDecodeError)`, or the ValueError of a refused constant. */
export class PyJsonError extends Error {}

/** Deeper than this, Python's recursion limit ends the parse (the service answers 500): the caller decides. */
export class PyJsonTooDeep extends Error {}

const MAX_DEPTH = 1000;
const WS = /[ \t\n\r]*/y;
const NUMBER = /(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
// eslint-disable-next-line no-control-regex -- a JSON string ends at a quote, a backslash or a control character
const STRING_CHUNK = /[^"\\\x00-\x1f]*/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const CONSTANTS = ['NaN', 'Infinity', '-Infinity'] as const;

class Stop {
  constructor(readonly at: number) {}
}

class Scanner {
  private depth = 0;

  constructor(
    private readonly s: string,
    /** DRF's strict parse refuses NaN and the infinities (rest_framework/utils/json.py strict_constant). */
    private readonly strict: boolean,
  ) {}

  fail(message: string, at: number): never {
    const before = Array.from(this.s.slice(0, at));
    const newline = before.lastIndexOf('\n');
    const line = before.filter((c) => c === '\n').length + 1;
    throw new PyJsonError(`${message}: line ${line} column ${before.length - newline} (char ${before.length})`);
  }

  ws(at: number): number {
    WS.lastIndex = at;
    WS.exec(this.s);
    return WS.lastIndex;
  }

  decode(): PyValue {
    if (this.s.startsWith('\ufeff')) this.fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    const [value, end] = this.value(this.ws(0), 'Expecting value');
    const last = this.ws(end);
    if (last !== this.s.length) this.fail('Extra data', last);
    return value;
  }

  /** scan_once, with StopIteration turned into `message` at its position. */
  value(at: number, message: string): [PyValue, number] {
    const result = this.scanOnce(at);
    if (result instanceof Stop) this.fail(message, result.at);
    return result;
  }

  scanOnce(at: number): [PyValue, number] | Stop {
    const { s } = this;
    const c = s[at];
    if (c === undefined) return new Stop(at);
    if (c === '"') return this.string(at + 1);
    if (c === '{') return this.nested(() => this.object(at + 1));
    if (c === '[') return this.nested(() => this.array(at + 1));
    for (const [word, value] of [['null', null], ['true', true], ['false', false]] as const) if (s.startsWith(word, at)) return [value, at + word.length];
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(s);
    if (number) return [new PyNumber(number[0]), at + number[0].length];
    for (const constant of CONSTANTS) {
      if (!s.startsWith(constant, at)) continue;
      if (this.strict) throw new PyJsonError(`Out of range float values are not JSON compliant: '${constant}'`);
      return [new PyNumber(constant), at + constant.length];
    }
    return new Stop(at);
  }

  nested<T>(scan: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new PyJsonTooDeep();
    try {
      return scan();
    } finally {
      this.depth--;
    }
  }

  /** py_scanstring / scanstring_unicode: `at` is just past the opening quote. */
  string(at: number): [string, number] {
    const { s } = this;
    const begin = at - 1;
    let text = '';
    let end = at;
    for (;;) {
      STRING_CHUNK.lastIndex = end;
      STRING_CHUNK.exec(s);
      text += s.slice(end, STRING_CHUNK.lastIndex);
      end = STRING_CHUNK.lastIndex;
      const terminator = s[end];
      if (terminator === undefined) this.fail('Unterminated string starting at', begin);
      if (terminator === '"') return [text, end + 1];
      if (terminator !== '\\') this.fail('Invalid control character at', end);
      const escape = s[end + 1];
      if (escape === undefined) this.fail('Unterminated string starting at', begin);
      if (escape !== 'u') {
        const replacement = ESCAPES[escape];
        if (replacement === undefined) this.fail('Invalid \\escape', end);
        text += replacement;
        end += 2;
        continue;
      }
      let unit = this.hex4(end + 1);
      end += 6;
      if (unit >= 0xd800 && unit <= 0xdbff && s.startsWith('\\u', end)) {
        const low = this.hex4(end + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
          end += 6;
        }
      }
      text += String.fromCodePoint(unit);
    }
  }

  /** The four hex digits after the `u` at `at`. */
  hex4(at: number): number {
    const digits = this.s.slice(at + 1, at + 5);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) this.fail('Invalid \\uXXXX escape', at);
    return parseInt(digits, 16);
  }

  /** JSONObject: `at` is just past the `{`. */
  object(at: number): [PyObject, number] {
    const { s } = this;
    const entries = new Map<string, PyValue>();
    let end = this.ws(at);
    if (s[end] === '}') return [new PyObject(entries), end + 1];
    if (s[end] !== '"') this.fail('Expecting property name enclosed in double quotes', end);
    end += 1;
    for (;;) {
      const [key, afterKey] = this.string(end);
      end = this.ws(afterKey);
      if (s[end] !== ':') this.fail("Expecting ':' delimiter", end);
      const [value, afterValue] = this.value(this.ws(end + 1), 'Expecting value');
      entries.delete(key);
      entries.set(key, value);
      end = this.ws(afterValue);
      const next = s[end];
      end += 1;
      if (next === '}') return [new PyObject(entries), end];
      if (next !== ',') this.fail("Expecting ',' delimiter", end - 1);
      const comma = end - 1;
      end = this.ws(end);
      const quote = s[end];
      end += 1;
      if (quote === '}') this.fail('Illegal trailing comma before end of object', comma);
      if (quote !== '"') this.fail('Expecting property name enclosed in double quotes', end - 1);
    }
  }

  /** JSONArray: `at` is just past the `[`. */
  array(at: number): [PyValue[], number] {
    const { s } = this;
    const values: PyValue[] = [];
    let end = this.ws(at);
    if (s[end] === ']') return [values, end + 1];
    for (;;) {
      const [value, afterValue] = this.value(end, 'Expecting value');
      values.push(value);
      end = this.ws(afterValue);
      const next = s[end];
      end += 1;
      if (next === ']') return [values, end];
      if (next !== ',') this.fail("Expecting ',' delimiter", end - 1);
      const comma = end - 1;
      end = this.ws(end);
      if (s[end] === ']') this.fail('Illegal trailing comma before end of array', comma);
    }
  }
}

/** json.loads(text), throwing PyJsonError in Python's words (PyJsonTooDeep past the recursion limit). */
export function pyLoads(text: string, options: { strict: boolean }): PyValue {
  return new Scanner(text, options.strict).decode();
}

/** json.dumps(value, indent=2, sort_keys=True): ASCII only, a float as Python's repr, keys in code point order. */
export function pyDumps(value: PyValue, level = 0): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return pyString(value);
  if (value instanceof PyNumber) return pyNumberText(value.text);
  const inner = '  '.repeat(level + 1);
  const close = `\n${'  '.repeat(level)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + pyDumps(item, level + 1)).join(',\n')}${close}]`;
  }
  if (value.entries.size === 0) return '{}';
  const keys = [...value.entries.keys()].sort(codePointOrder);
  return `{\n${keys.map((key) => `${inner}${pyString(key)}: ${pyDumps(value.entries.get(key) as PyValue, level + 1)}`).join(',\n')}${close}}`;
}

/** Python's str ordering: by code point (JavaScript's default compares UTF-16 units). */
export function codePointOrder(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function pyString(text: string): string {
  const escaped = text.replace(/[\\"]|[^ -~]/g, (c) => {
    if (c === '"' || c === '\\') return `\\${c}`;
    const short = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' }[c];
    return short ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

/** An int's text as Python prints the int; a float's as repr(float(text)). */
function pyNumberText(text: string): string {
  if ((CONSTANTS as readonly string[]).includes(text)) return text;
  if (/^-?\d+$/.test(text)) return text.replace(/^-(0+)$/, '0').replace(/^(-?)0+(?=\d)/, '$1');
  return pyFloatRepr(Number(text));
}

/** repr(float): the shortest digits that read back, fixed notation for exponents -4..15, else d.ddde+XX. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = x.toExponential().split('e') as [string, string];
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1) || '0';
  return `${sign}${whole}.${fraction}`;
}
