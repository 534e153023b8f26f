// Is this text a regular expression Python's `re` compiles? The service's JSON Schema validator
// checks the meta-schema's "regex" format (every `pattern`, every `patternProperties` name) with
// `re.compile` (jsonschema's _format.py, is_regex). JavaScript's grammar differs both ways
// ((?P<name>...) and \Z are Python's; \p{L} and (?<name>...) are JavaScript's), so the text is
// read with Python's rules, rewritten into JavaScript's spelling of the same thing, and that is
// compiled. Not checked: that a look-behind has a fixed width, and \N{...} names.

const OUTSIDE_ESCAPES = new Set('abBdDfnrsStvwWZAxuUN');
const INSIDE_ESCAPES = new Set('abfnrtvxuUNdDsSwW');
const CLASS_ESCAPES = new Set('dDsSwW');
const FLAGS = /^[aiLmsux]*(?:-[imsx]+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

class NotRegex extends Error {}

interface Scan {
  text: string;
  at: number;
  out: string;
  groups: number;
  open: number[];
  names: Map<string, number>;
  /** The last thing written was a quantifier a `+` may make possessive. */
  quantified: boolean;
}

export function isPythonRegex(text: string): boolean {
  const scan: Scan = { text, at: 0, out: '', groups: 0, open: [], names: new Map(), quantified: false };
  try {
    while (scan.at < text.length) step(scan);
    new RegExp(scan.out);
    return true;
  } catch {
    return false;
  }
}

function step(s: Scan): void {
  const c = s.text[s.at]!;
  const quantified = s.quantified;
  s.quantified = false;
  if (c === '\\') return void (s.out += escape(s, false));
  if (c === '[') return characterClass(s);
  if (c === '(') return group(s);
  if (c === ')') {
    s.open.pop();
    s.out += ')';
    s.at++;
    return;
  }
  if (c === '+' && quantified) return void s.at++; // possessive (Python 3.11 and later)
  const brace = c === '{' ? /^\{(\d*)(,\d*)?\}/.exec(s.text.slice(s.at)) : null;
  if (brace && (brace[1] !== '' || brace[2] !== undefined)) {
    // {,n} and {m,} are Python's; JavaScript reads {,n} as text, so it is written out in full.
    s.out += `{${brace[1] || '0'}${brace[2] ?? ''}}`;
    s.at += brace[0].length;
    s.quantified = true;
    return;
  }
  s.out += c;
  s.at++;
  s.quantified = c === '*' || c === '+' || c === '?';
  // `a*?` is lazy, not a second quantifier: a `+` after it is a repeat of a repeat.
  if (c === '?' && quantified) s.quantified = false;
}

/** One escape (`s.at` on the backslash), as JavaScript text. */
function escape(s: Scan, inClass: boolean): string {
  const c = s.text[s.at + 1];
  if (c === undefined) throw new NotRegex();
  s.at += 2;
  if (/[0-9]/.test(c)) return inClass ? classOctal(s, c) : backReference(s, c);
  if (!/[A-Za-z]/.test(c)) return `\\${c}`;
  if (!(inClass ? INSIDE_ESCAPES : OUTSIDE_ESCAPES).has(c)) throw new NotRegex();
  if (c === 'x') return codePoint(s, 2);
  if (c === 'u') return codePoint(s, 4);
  if (c === 'U') return codePoint(s, 8);
  if (c === 'N') {
    const name = /^\{[^}]+\}/.exec(s.text.slice(s.at));
    if (!name) throw new NotRegex();
    s.at += name[0].length;
    return 'a';
  }
  if (c === 'a') return '\\x07';
  if (c === 'b' && inClass) return '\\x08';
  if (c === 'Z') return '$';
  if (c === 'A') return '^';
  return `\\${c}`;
}

function codePoint(s: Scan, digits: number): string {
  const hex = s.text.slice(s.at, s.at + digits);
  if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) throw new NotRegex();
  s.at += digits;
  const value = parseInt(hex, 16);
  if (value > 0x10ffff) throw new NotRegex();
  return value > 0xffff ? 'a' : `\\u${value.toString(16).padStart(4, '0')}`;
}

function classOctal(s: Scan, first: string): string {
  if (first === '8' || first === '9') throw new NotRegex();
  const more = /^[0-7]{0,2}/.exec(s.text.slice(s.at))![0];
  s.at += more.length;
  const value = parseInt(first + more, 8);
  if (value > 0o377) throw new NotRegex();
  return `\\u${value.toString(16).padStart(4, '0')}`;
}

/** \0, \012 (octal) or \1..\99 (a group that exists and is closed). */
function backReference(s: Scan, first: string): string {
  const rest = s.text.slice(s.at);
  const octal = /^[0-7]{2}/.exec(rest);
  if (first === '0' || (/[0-7]/.test(first) && octal)) {
    const digits = first === '0' ? /^[0-7]{0,2}/.exec(rest)![0] : octal![0];
    s.at += digits.length;
    if (parseInt(first + digits, 8) > 0o377) throw new NotRegex();
    return '\\x00';
  }
  const second = /^[0-9]/.exec(rest)?.[0] ?? '';
  s.at += second.length;
  const group = Number(first + second);
  if (group > s.groups || s.open.includes(group)) throw new NotRegex();
  return '(?:)';
}

function characterClass(s: Scan): void {
  s.at++;
  let out = '[';
  if (s.text[s.at] === '^') {
    out += '^';
    s.at++;
  }
  // An item is a character or a class escape (\d ...), which cannot end a range.
  let items: Array<'char' | 'class' | 'dash'> = [];
  let first = true;
  for (;;) {
    const c = s.text[s.at];
    if (c === undefined) throw new NotRegex();
    if (c === ']' && !first) break;
    first = false;
    let item: 'char' | 'class' | 'dash' = 'char';
    if (c === '\\') {
      if (CLASS_ESCAPES.has(s.text[s.at + 1] ?? '')) item = 'class';
      out += escape(s, true);
    } else {
      out += c === ']' || c === '[' ? `\\${c}` : c;
      if (c === '-') item = 'dash';
      s.at++;
    }
    const [before, dash] = items.slice(-2);
    if (dash === 'dash' && before !== undefined && before !== 'dash' && (before === 'class' || item === 'class')) throw new NotRegex();
    items = [...items.slice(-2), item];
    if (dash === 'dash' && before !== undefined && before !== 'dash') items = [];
  }
  s.at++;
  s.out += `${out}]`;
}

function group(s: Scan): void {
  const rest = s.text.slice(s.at);
  if (!rest.startsWith('(?')) return capture(s, 1);
  const after = rest.slice(2);
  const named = /^P<([^>]*)>/.exec(after);
  if (named) {
    if (!NAME.test(named[1]!) || s.names.has(named[1]!)) throw new NotRegex();
    s.names.set(named[1]!, s.groups + 1);
    return capture(s, 2 + named[0].length);
  }
  const reference = /^P=([^)]*)\)/.exec(after);
  if (reference) {
    const number = s.names.get(reference[1]!);
    if (number === undefined || s.open.includes(number)) throw new NotRegex();
    s.out += '(?:)';
    s.at += 2 + reference[0].length;
    return;
  }
  if (after.startsWith('#')) {
    const end = rest.indexOf(')');
    if (end < 0) throw new NotRegex();
    s.at += end + 1;
    return;
  }
  for (const [spelling, js] of [[':', '(?:'], ['=', '(?='], ['!', '(?!'], ['<=', '(?<='], ['<!', '(?<!'], ['>', '(?:']] as const) {
    if (after.startsWith(spelling)) return open(s, 2 + spelling.length, js);
  }
  const condition = /^\((?:[A-Za-z_][A-Za-z0-9_]*|\d+)\)/.exec(after);
  if (condition) return open(s, 2 + condition[0].length, '(?:');
  flags(s, after);
}

/** (?i) at the start of the pattern, or (?i-s:...) anywhere. */
function flags(s: Scan, after: string): void {
  const letters = FLAGS.exec(after)![0];
  const end = after[letters.length];
  if (letters !== '' && end === ')' && !letters.includes('-') && s.out === '') {
    s.at += 2 + letters.length + 1;
    return;
  }
  if (end === ':' && (letters !== '' || after.startsWith(':'))) return open(s, 2 + letters.length + 1, '(?:');
  throw new NotRegex();
}

function capture(s: Scan, length: number): void {
  s.groups++;
  s.open.push(s.groups);
  s.out += '(';
  s.at += length;
}

function open(s: Scan, length: number, js: string): void {
  s.open.push(0);
  s.out += js;
  s.at += length;
}
