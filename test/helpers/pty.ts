import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { BIN, childEnv, tempDir } from './cli.js';

// A real pseudo-terminal for what only a terminal shows (prompts, line editing, wrapping): util-linux
// `script` runs the built bin/agentctl.js on a pty of the given size. Keystrokes go in through
// script's stdin; everything the terminal received comes back on its stdout, as raw bytes.

export interface PtyOptions {
  columns: number;
  rows?: number;
  env?: Record<string, string | undefined>;
  configHome?: string;
  timeoutMs?: number;
}

export interface PtyRun {
  /** Everything written to the terminal so far (stdout and stderr, with escape sequences). */
  readonly output: () => string;
  /** Types text at the terminal (`\r` is Enter, `\x04` is Ctrl-D). */
  type(text: string): void;
  /** Resolves once the output matches; rejects if the process ends first. */
  waitFor(test: (output: string) => boolean, what: string): Promise<string>;
  /**
   * Resizes the terminal, as dragging its window's corner does: the kernel sends the program
   * SIGWINCH. Resolves once the size is set.
   */
  resize(columns: number, rows?: number): Promise<void>;
  /** Waits for the process to end. */
  done(): Promise<{ exitCode: number; output: string }>;
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export function ptyAgentctl(args: string[], options: PtyOptions): PtyRun {
  const home = options.configHome ?? tempDir();
  // The pty's name is kept, for `resize` to set its size from outside (stty -F).
  const ttyName = join(tempDir(), 'tty');
  const command = `stty cols ${options.columns} rows ${options.rows ?? 24}; tty > ${quote(ttyName)}; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const env = childEnv(home, { TERM: 'xterm' });
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  const child: ResultPromise = execa('script', ['-qefc', command, '/dev/null'], {
    reject: false,
    timeout: options.timeoutMs ?? 20_000,
    extendEnv: false,
    env,
    stdin: 'pipe',
    stripFinalNewline: false,
  });
  let output = '';
  const waiters = new Set<() => void>();
  let ended = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const wake of waiters) wake();
  });
  const ending = child.then((result) => {
    ended = true;
    for (const wake of waiters) wake();
    return { exitCode: result.exitCode ?? -1, output };
  });
  return {
    output: () => output,
    type: (text) => void child.stdin?.write(text),
    resize: async (columns, rows) => {
      await execa('stty', ['-F', readFileSync(ttyName, 'utf8').trim(), 'cols', String(columns), 'rows', String(rows ?? options.rows ?? 24)]);
    },
    waitFor: (test, what) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (test(output)) {
            waiters.delete(check);
            resolve(output);
          } else if (ended) {
            waiters.delete(check);
            reject(new Error(`the process ended before ${what}; the terminal showed:\n${render(output, options.columns).join('\n')}`));
          }
        };
        waiters.add(check);
        check();
      }),
    done: async () => {
      child.stdin?.end();
      return ending;
    },
  };
}

/**
 * What a terminal of this width shows after receiving `bytes`: the lines of the screen (scrollback
 * kept), trailing spaces trimmed. Enough of a VT100 for readline and agentctl: printable text with
 * auto-wrap, CR, LF, backspace, cursor moves (CSI n A/B/C/D/G) and erases (CSI J, CSI K).
 */
export function render(bytes: string, columns: number): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  const clearFrom = (at: number) => void (lines[row] = line().slice(0, at));
  // eslint-disable-next-line no-control-regex
  const tokens = bytes.match(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b.|[\s\S]/gu) ?? [];
  for (const token of tokens) {
    if (token.startsWith('\x1b[')) {
      const n = Number.parseInt(token.slice(2), 10);
      const final = token.at(-1);
      if (final === 'A') row = Math.max(0, row - (n || 1));
      else if (final === 'B') row += n || 1;
      else if (final === 'C') col = Math.min(columns - 1, col + (n || 1));
      else if (final === 'D') col = Math.max(0, col - (n || 1));
      else if (final === 'G') col = (n || 1) - 1;
      else if (final === 'K') clearFrom(col);
      else if (final === 'J') {
        clearFrom(col);
        lines.length = row + 1;
      }
    } else if (token.startsWith('\x1b')) continue;
    else if (token === '\r') col = 0;
    else if (token === '\n') row++;
    else if (token === '\b') col = Math.max(0, col - 1);
    else if (token >= ' ') {
      if (col >= columns) {
        row++;
        col = 0;
      }
      const cells = line();
      while (cells.length < col) cells.push(' ');
      cells[col++] = token;
    }
  }
  return Array.from(lines, (cells) => (cells ?? []).join('').trimEnd());
}
