import { UsageError } from '../errors.js';
import { toJson, unprintable } from './format.js';

// `--jq EXPR` runs the real jq (1.7, compiled to WebAssembly by the jq-wasm package: no native
// binary, no install script), loaded only when the flag is given. Strings print raw, as gh does.

type JqModule = typeof import('jq-wasm');
let jqModule: Promise<JqModule> | undefined;
function loadJq(): Promise<JqModule> {
  // A CommonJS package: bundled, its exports may arrive as the namespace's default.
  jqModule ??= import('jq-wasm').then((module) => ('raw' in module ? module : (module as { default: JqModule }).default));
  return jqModule;
}

function jqError(expression: string, error: unknown): UsageError {
  const text = (error instanceof Error ? error.message : String(error)).replace(/^Failed to execute raw query: /, '');
  const reason = text.split('\n').find((line) => line.trim() !== '') ?? text;
  return new UsageError(`--jq ${JSON.stringify(expression)}: ${reason.replace(/^jq: error(: )?/, '')}`, 'the expression is jq syntax: https://jqlang.org/manual/');
}

/** Refuses an expression that does not compile, before any request is sent. */
export async function checkJq(expression: string): Promise<void> {
  const jq = await loadJq();
  try {
    await jq.raw('null', expression, ['-r']);
  } catch (error) {
    // Only a compile error is the expression's fault; `.[]` on null is fine for real data.
    if (/compile error/.test(String((error as Error)?.message ?? error))) throw jqError(expression, error);
  }
}

/** The filter's output for one JSON document: strings raw, other values as JSON (compact when asked). */
export async function runJq(expression: string, value: unknown, compact: boolean): Promise<string> {
  const jq = await loadJq();
  const input = toJson(value ?? null);
  try {
    const output = await jq.raw(input, expression, compact ? ['-r', '-c'] : ['-r']);
    return output === '' || output.endsWith('\n') ? output : `${output}\n`;
  } catch (error) {
    // The input is JSON we wrote: jq failing to read it is the data's doing (jq reads 256 levels deep at most).
    const message = String((error as Error)?.message ?? error);
    if (/parse error|depth limit/i.test(message)) throw unprintable(`jq cannot read it (${message.replace(/^.*?jq: (error: )?/s, '').split('\n')[0]})`, 'filtered with --jq');
    throw jqError(expression, error);
  }
}
