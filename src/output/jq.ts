import { UsageError } from '../errors.js';
import { toJson, unprintable } from './format.js';

// `--jq EXPR` runs the real jq (1.7, compiled to WebAssembly by the jq-wasm package: no native
// binary, no install script), loaded only when the flag is given. Strings print raw, as gh does.

interface JqInstance {
  raw(input: string, filter: string, flags: string[]): Promise<string>;
}
type JqFactory = () => Promise<JqInstance>;

/**
 * jq-wasm runs jq's main() once per call in one WebAssembly instance, and each run leaves ~200 bytes
 * of the instance's 64 KiB stack behind (jq ends with exit(), which unwinds past the stack's
 * restore): the ~310th call failed with "memory access out of bounds" (a --jq over a list of 311
 * items). So a fresh instance (~5 ms) takes over every CALLS_PER_INSTANCE calls, and after a failure.
 */
const CALLS_PER_INSTANCE = 50;
let factory: Promise<JqFactory> | undefined;
let instance: Promise<JqInstance> | undefined;
let calls = 0;

function loadFactory(): Promise<JqFactory> {
  // A CommonJS module: bundled or not, the function is the namespace's default.
  factory ??= import('jq-wasm/dist/build/jq.js').then((module) => module.default as unknown as JqFactory);
  return factory;
}

/** jq's output for one input; the instance is renewed before its stack runs out. */
async function jq(input: string, expression: string, flags: string[]): Promise<string> {
  if (instance === undefined || calls % CALLS_PER_INSTANCE === 0) instance = loadFactory().then((make) => make());
  calls++;
  const current = instance;
  try {
    return await (await current).raw(input, expression, flags);
  } catch (error) {
    if (instance === current) instance = undefined; // a run that failed may have left it unusable
    throw error;
  }
}

function jqError(expression: string, error: unknown): UsageError {
  const text = error instanceof Error ? error.message : String(error);
  const reason = text.split('\n').find((line) => line.trim() !== '') ?? text;
  return new UsageError(`--jq ${JSON.stringify(expression)}: ${reason.replace(/^jq: error(: )?/, '')}`, 'the expression is jq syntax: https://jqlang.org/manual/');
}

/** Refuses an expression that does not compile, before any request is sent. */
export async function checkJq(expression: string): Promise<void> {
  try {
    await jq('null', expression, ['-r']);
  } catch (error) {
    // Only a compile error is the expression's fault; `.[]` on null is fine for real data.
    if (/compile error/.test(String((error as Error)?.message ?? error))) throw jqError(expression, error);
  }
}

/** The filter's output for one JSON document: strings raw, other values as JSON (compact when asked). */
export async function runJq(expression: string, value: unknown, compact: boolean): Promise<string> {
  const input = toJson(value ?? null);
  try {
    const output = await jq(input, expression, compact ? ['-r', '-c'] : ['-r']);
    return output === '' || output.endsWith('\n') ? output : `${output}\n`;
  } catch (error) {
    // The input is JSON we wrote: jq failing to read it is the data's doing (jq reads 256 levels deep at most).
    const message = String((error as Error)?.message ?? error);
    if (/parse error|depth limit/i.test(message)) throw unprintable(`jq cannot read it (${message.replace(/^.*?jq: (error: )?/s, '').split('\n')[0]})`, 'filtered with --jq');
    throw jqError(expression, error);
  }
}
