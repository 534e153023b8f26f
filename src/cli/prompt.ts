import type { IO } from './io.js';

/**
 * What a person did at a prompt: typed a line, ended the input (Ctrl-D on an empty line), or
 * pressed Ctrl-C. At a terminal readline takes the keys raw, so Ctrl-C reaches us as a key, not
 * as SIGINT: each caller says what it means (130, with what was left undone).
 */
export type PromptAnswer = { kind: 'line'; text: string } | { kind: 'end' } | { kind: 'interrupt' };

/**
 * Asks one question on the terminal (stderr) and reads one line from stdin. `hidden`: the keys are
 * not echoed (an API key); readline then draws into a stream that drops everything, as its redraws
 * would otherwise clear the label printed here. After Ctrl-C or Ctrl-D the cursor is moved to a new
 * line, so what follows (or the shell's prompt) does not land on the question's line.
 */
export async function askLine(io: IO, question: string, options: { hidden?: boolean } = {}): Promise<PromptAnswer> {
  const [{ createInterface }, { Writable }] = await Promise.all([import('node:readline'), import('node:stream')]);
  const stderr = io.stderr as unknown as NodeJS.WritableStream;
  const output = options.hidden ? new Writable({ write: (_chunk, _encoding, done) => done() }) : stderr;
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: PromptAnswer) => {
      if (settled) return;
      settled = true;
      io.signal.removeEventListener('abort', onAbort);
      rl.close();
      // Enter has moved the cursor already when the line was echoed; a hidden line echoes nothing.
      if (answer.kind !== 'line' || options.hidden) io.stderr.write('\n');
      resolve(answer);
    };
    const onAbort = () => finish({ kind: 'interrupt' });
    io.signal.addEventListener('abort', onAbort, { once: true });
    rl.on('SIGINT', () => finish({ kind: 'interrupt' }));
    rl.on('close', () => finish({ kind: 'end' }));
    if (options.hidden) io.stderr.write(question);
    rl.question(options.hidden ? '' : question, (text) => finish({ kind: 'line', text }));
  });
}
