import { UsageError } from '../errors.js';
import { toJson, unprintable } from './format.js';
import { baselineWasmOnly, jqFactory, jqGlue, jqRequire, type JqFactory } from './jq-glue.js';

// `--jq EXPR` runs the real jq (1.7, compiled to WebAssembly by the jq-wasm package: no native
// binary, no install script), loaded only when the flag is given. Strings print raw, as gh does.

interface JqInstance {
  raw(input: string, filter: string, flags: string[]): Promise<string>;
}
/**
 * Runs a filter's run, which holds the main thread until jq returns (a filter may never end:
 * `repeat(1)`), so that Ctrl-C and SIGTERM still stop it (io.process.holdingThread).
 */
export type Hold = <T>(run: () => Promise<T>) => Promise<T>;
const unheld: Hold = (run) => run();

/**
 * jq-wasm runs jq's main() once per call in one WebAssembly instance, and each run leaves part of
 * the instance's memory behind (jq ends with exit(), which unwinds past the stack's restore): ~3.3 KB
 * plus the expression's own bytes, of ~1 MB. The 312th run of `.id` failed with "memory access out
 * of bounds" (a --jq over a list of 312 items), the 53rd of a 16 KB expression, the 15th of a 70 KB
 * one. So a fresh instance (~5 ms) takes over once its runs would pass a fifth of that, and after a
 * failure: every 50 runs of a short expression, every 10 of a 16 KB one, every run of a 200 KB one.
 */
const RUN_COST = 4096;
const INSTANCE_BUDGET = 200_000;
let factory: JqFactory<JqInstance> | undefined;
let instance: Promise<JqInstance> | undefined;
let used = 0;

function loadFactory(): JqFactory<JqInstance> {
  baselineWasmOnly();
  if (factory === undefined) {
    const glue = jqGlue();
    factory = jqFactory<JqInstance>(glue, jqRequire(glue));
  }
  return factory;
}

/** jq's output for one input; the instance is renewed before its memory runs out. */
async function jq(input: string, expression: string, flags: string[], hold: Hold): Promise<string> {
  const cost = RUN_COST + Buffer.byteLength(expression);
  if (instance === undefined || used + cost > INSTANCE_BUDGET) {
    instance = Promise.resolve().then(() => loadFactory()());
    used = 0;
  }
  used += cost;
  const current = instance;
  try {
    const ready = await current;
    // Only the run itself is held: jq runs in the promise raw() returns, before anything else can.
    return await hold(() => ready.raw(input, expression, flags));
  } catch (error) {
    if (instance === current) instance = undefined; // a run that failed may have left it unusable
    throw error;
  }
}

export function jqError(expression: string, error: unknown): UsageError {
  const text = error instanceof Error ? error.message : String(error);
  const reason = text.split('\n').find((line) => line.trim() !== '') ?? text;
  return new UsageError(`--jq ${JSON.stringify(expression)}: ${reason.replace(/^jq: error(: )?/, '')}`, 'the expression is jq syntax: https://jqlang.org/manual/');
}

/** Refuses an expression that does not compile, before any request is sent. */
export async function checkJq(expression: string, hold: Hold = unheld): Promise<void> {
  try {
    await jq('null', expression, ['-r'], hold);
  } catch (error) {
    // Only a compile error is the expression's fault; `.[]` on null is fine for real data.
    if (/compile error/.test(String((error as Error)?.message ?? error))) throw jqError(expression, error);
  }
}

/** The filter's output for one JSON document: strings raw, other values as JSON (compact when asked). */
export async function runJq(expression: string, value: unknown, compact: boolean, hold: Hold = unheld): Promise<string> {
  const input = toJson(value ?? null);
  try {
    const output = await jq(input, expression, compact ? ['-r', '-c'] : ['-r'], hold);
    return output === '' || output.endsWith('\n') ? output : `${output}\n`;
  } catch (error) {
    // The input is JSON we wrote: jq failing to read it is the data's doing (jq reads 256 levels deep at most).
    const message = String((error as Error)?.message ?? error);
    if (/parse error|depth limit/i.test(message)) throw unprintable(`jq cannot read it (${message.replace(/^.*?jq: (error: )?/s, '').split('\n')[0]})`, 'filtered with --jq');
    throw jqError(expression, error);
  }
}
