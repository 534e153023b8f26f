// Just enough of a shell to run the one-line examples of the docs and of `--help` in-process: words
// with quotes and $VAR / ${VAR:-default} / $(...) expansion, pipelines, `;` `&&` `||` `&` lists,
// `> file` and `2> file` redirections and `*` globs. Not a shell: what it cannot do, it refuses
// (throws), so an example it misreads fails the test rather than passing for the wrong reason.

/** One simple command of a pipeline: its words and where its output goes. */
export interface SimpleCommand {
  words: string[];
  stdoutTo?: string;
  stderrTo?: string;
}

export interface ShellHooks {
  /** A variable's value (undefined: unset). */
  variable(name: string): string | undefined;
  /** Runs a command substitution's text, resolving to its stdout. */
  substitute(text: string): Promise<string>;
  /** The words a glob word stands for (the word itself when nothing matches, as bash does). */
  glob(word: string): string[];
}

/** A line without its trailing comment (` # ...` outside quotes), and the comment. */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | undefined;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '$' && line[i + 1] === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (c === '#' && depth === 0 && (i === 0 || /\s/.test(line[i - 1] as string))) return { code: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
  }
  return { code: line.trim(), comment: '' };
}

/** The matching `)` of a `$(` or `<(` whose `(` is at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  throw new Error(`unbalanced $( in: ${text}`);
}

type Token = { kind: 'word'; parts: Array<{ text: string; quoted: boolean } | { sub: string; quoted: boolean } | { variable: string; fallback?: string; quoted: boolean }> } | { kind: 'op'; op: string };

/** The tokens of a line: words (unexpanded, as parts) and operators. */
function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  let word: Extract<Token, { kind: 'word' }> | undefined;
  const part = () => (word ??= { kind: 'word', parts: [] }).parts;
  const end = () => {
    if (word) tokens.push(word);
    word = undefined;
  };
  let quote: string | undefined;
  for (let i = 0; i < code.length; i++) {
    const c = code[i] as string;
    const rest = code.slice(i);
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else part().push({ text: c, quoted: true });
      continue;
    }
    if ((c === '$' || (c === '<' && !quote)) && code[i + 1] === '(') {
      const close = closing(code, i + 1);
      part().push({ sub: code.slice(i + 2, close), quoted: quote === '"' });
      i = close;
      continue;
    }
    const variable = /^\$(?:\{(\w+)(?::-([^}]*))?\}|(\w+|\?))/.exec(rest);
    if (variable) {
      part().push({ variable: (variable[1] ?? variable[3]) as string, fallback: variable[2], quoted: quote === '"' });
      i += variable[0].length - 1;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && /["\\$`]/.test(code[i + 1] ?? '')) part().push({ text: code[++i] as string, quoted: true });
      else part().push({ text: c, quoted: true });
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      part();
      continue;
    }
    const op = /^(2>|&&|\|\||[|;&>])/.exec(rest)?.[1];
    if (op) {
      end();
      tokens.push({ kind: 'op', op });
      i += op.length - 1;
    } else if (/\s/.test(c)) end();
    else if (c === '\\') part().push({ text: code[++i] ?? '', quoted: true });
    else part().push({ text: c, quoted: false });
  }
  if (quote) throw new Error(`unterminated quote in: ${code}`);
  end();
  return tokens;
}

/** A word's expansion: variables and substitutions, then a glob when unquoted `*` is in it. */
async function expand(token: Extract<Token, { kind: 'word' }>, hooks: ShellHooks): Promise<string[]> {
  let text = '';
  let globbing = false;
  for (const part of token.parts) {
    if ('text' in part) {
      text += part.text;
      if (!part.quoted && part.text === '*') globbing = true;
    } else if ('sub' in part) text += (await hooks.substitute(part.sub)).replace(/\n+$/, '');
    else {
      const value = hooks.variable(part.variable);
      text += value === undefined || (value === '' && part.fallback !== undefined) ? (part.fallback ?? '') : value;
    }
  }
  const first = token.parts[0];
  if (first && 'text' in first && first.text === '~' && !first.quoted) text = `${hooks.variable('HOME') ?? '~'}${text.slice(1)}`;
  return globbing ? hooks.glob(text) : [text];
}

/** A list of pipelines, each a list of simple commands, with the operator before each pipeline. */
export interface Pipeline {
  /** What joins it to the one before: ';', '&&', '||' or '&'. */
  after: string;
  commands: SimpleCommand[];
  /** Ends in `&`: runs in the background. */
  background: boolean;
}

/** Parses and expands a line (its comment already split off) into pipelines. */
export async function parseLine(code: string, hooks: ShellHooks): Promise<Pipeline[]> {
  const pipelines: Pipeline[] = [];
  let current: Pipeline = { after: ';', commands: [], background: false };
  let command: SimpleCommand = { words: [] };
  let redirect: 'stdoutTo' | 'stderrTo' | undefined;
  const finishCommand = () => {
    if (command.words.length > 0) current.commands.push(command);
    command = { words: [] };
  };
  for (const token of tokenize(code)) {
    if (token.kind === 'word') {
      const words = await expand(token, hooks);
      if (redirect) command[redirect] = words.join(' ');
      else command.words.push(...words);
      redirect = undefined;
    } else if (token.op === '>' || token.op === '2>') redirect = token.op === '>' ? 'stdoutTo' : 'stderrTo';
    else if (token.op === '|') finishCommand();
    else {
      finishCommand();
      if (token.op === '&') current.background = true;
      if (current.commands.length > 0) pipelines.push(current);
      current = { after: token.op, commands: [], background: false };
    }
  }
  finishCommand();
  if (current.commands.length > 0) pipelines.push(current);
  return pipelines;
}

/** What `printf FORMAT ARGS...` or `echo ARGS...` writes (the forms the examples use). */
export function printed(words: string[]): string | undefined {
  const [name, ...args] = words;
  if (name === 'echo') return `${args.join(' ')}\n`;
  if (name !== 'printf') return undefined;
  const [format = '', ...values] = args;
  let index = 0;
  return format.replace(/%s|\\n/g, (match) => (match === '%s' ? (values[index++] ?? '') : '\n'));
}
