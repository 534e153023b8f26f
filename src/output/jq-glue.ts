import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { readBuildBytes, readBuildFile } from '../contract/build-files.js';

// Where jq comes from: jq-wasm's Emscripten loader and jq's WebAssembly. The build ships them apart
// (dist/lib/jq.js, dist/lib/jq.wasm: scripts/esbuild-plugins.mjs, splitJqLoader), so a run of --jq
// neither parses nor decodes the ~1.2 MB of base64 the published loader carries; from the sources
// the published loader is used as it is. One loading for both runs of jq: this thread's
// (src/output/jq.ts) and the stream's worker (jq-worker.ts), which evaluates `source` itself.

/** The loader's source text and jq's bytes (from a build), or the published loader's path. */
export interface JqGlue {
  source?: string;
  wasm?: Uint8Array;
  path?: string;
}

export function jqGlue(): JqGlue {
  try {
    return { source: readBuildFile(import.meta.dirname, 'lib/jq.js'), wasm: readBuildBytes(import.meta.dirname, 'lib/jq.wasm') };
  } catch {
    return { path: createRequire(import.meta.url).resolve('jq-wasm/dist/build/jq.js') };
  }
}

/**
 * A require for the loader on this thread: the published one is a file among its package's; the
 * built one asks only for node's own modules (fs, path, crypto), which any require finds (the single
 * executable has no file of its own to start from).
 */
export function jqRequire(glue: JqGlue): (id: string) => unknown {
  return createRequire(glue.path ?? '/');
}

/** Emscripten's factory of a jq instance; `wasmBinary` spares it its own copy of jq's bytes. */
export type JqFactory<T> = (module?: { wasmBinary?: Uint8Array }) => Promise<T>;

/** The loader run as the CommonJS module it is, with `load` as its require. */
export function jqFactory<T>(glue: JqGlue, load: (id: string) => unknown): JqFactory<T> {
  const module = { exports: {} as { default?: unknown } };
  if (glue.source !== undefined) new Function('module', 'exports', 'require', '__filename', '__dirname', glue.source)(module, module.exports, load, 'jq.js', '.');
  else module.exports = load(glue.path!) as typeof module.exports;
  const factory = (module.exports.default ?? module.exports) as JqFactory<T>;
  return () => factory(glue.wasm ? { wasmBinary: glue.wasm } : {});
}

/**
 * Runs jq's WebAssembly on V8's baseline compiler (Liftoff) only, as long as the process lives. jq's
 * hottest function, its JSON parser (~28% of a stream's time), is one function of ~5,500
 * instructions: optimizing it (TurboFan, on background threads) costs more CPU than it saves over
 * thousands of documents, and on a 2-core machine those threads take the core the command needs.
 * Measured over 5,000 task documents: ~40% less CPU, and the stream's time down by about half
 * beside other work (docs/performance.md, "--jq"). Called before jq's module is compiled; the only
 * other WebAssembly a process may run is undici's HTTP parser (a run-batch with --jq), which keeps working.
 */
export function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}
