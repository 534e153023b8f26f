// What both builds share: scripts/build.mjs (dist/, what `node bin/agentctl.js` runs) and
// scripts/build-sea.mjs (the single executable).

import { readFile } from 'node:fs/promises';

export const TARGET = 'node20.18';

// Bundled CommonJS dependencies call require(): an ES module has none of its own.
export const REQUIRE_BANNER =
  "import { createRequire as __agentctlCreateRequire } from 'node:module'; const require = __agentctlCreateRequire(import.meta.url);";

// commander loads node:child_process at start-up (several ms: it pulls in net, dgram and more) for
// stand-alone executable subcommands, which agentctl never uses. Its copy is resolved to a stub that
// loads the real module on first use.
export const lazyChildProcess = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'agentctl-lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'agentctl-lazy' }, () => ({
      contents:
        "let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

// Libraries that `import process from 'node:process'` get the global object itself: an ES import of
// node:process would read every getter of process (creating stdin, among others) to build its facade.
export const plainProcess = {
  name: 'plain-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'agentctl-process' }));
    b.onLoad({ filter: /.*/, namespace: 'agentctl-process' }, () => ({ contents: 'module.exports = process;', loader: 'js' }));
  },
};

// jq-wasm 1.0 (--jq) hands jq its input one byte at a time by copying the rest of the input
// (`stdinBuffer.slice(1)`), and takes jq's output by copying all of it for each new byte: time
// grows with the square of the size (a 500 KB answer took 17 s to filter, 38 s to print with
// `--jq .`). The bundle reads the input through an offset and collects the output in an array
// instead. Each replacement must match exactly once, so an upgrade of jq-wasm that changes this
// code fails the build rather than silently going slow again.
const JQ_LINEAR_IO = [
  ['let stdinBuffer = new Uint8Array(0);', 'let stdinBuffer = new Uint8Array(0); let stdinOffset = 0;'],
  ['stdinBuffer = toByteArray(stdinString); stdoutBuffer = new Uint8Array(0);', 'stdinBuffer = toByteArray(stdinString); stdinOffset = 0; stdoutBuffer = [];'],
  [
    'if (stdinBuffer.length > 0) {\n                const byte = stdinBuffer[0];\n                stdinBuffer = stdinBuffer.slice(1);\n                return byte;\n            }',
    'if (stdinOffset < stdinBuffer.length) {\n                return stdinBuffer[stdinOffset++];\n            }',
  ],
  [
    'const tmp = new Uint8Array(stdoutBuffer.length + 1);\n                tmp.set(stdoutBuffer, 0);\n                tmp[tmp.length - 1] = charCode;\n                stdoutBuffer = tmp;',
    'stdoutBuffer.push(charCode);',
  ],
  ['return fromByteArray(stdoutBuffer).trim();', 'return fromByteArray(Uint8Array.from(stdoutBuffer)).trim();'],
];
/**
 * jq-wasm's Emscripten loader as dist/lib/jq.js holds it: input and output made linear (above), and
 * its WebAssembly, which it carries as a base64 data URI (~1.2 MB of text to parse and decode on
 * every run of --jq), taken out into its own file: `wasm` is jq.wasm's bytes, which the loader is
 * then handed (`wasmBinary`) by whoever loads it (src/output/jq-glue.ts).
 */
export function splitJqLoader(text, path) {
  let contents = text;
  for (const [from, to] of JQ_LINEAR_IO) {
    const count = contents.split(from).length - 1;
    if (count !== 1) throw new Error(`linear-jq-io: expected one ${JSON.stringify(from.slice(0, 40))}... in ${path}, found ${count}`);
    contents = contents.replace(from, () => to);
  }
  const binary = /function findWasmBinary\(\) \{ var f = "data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"; return f; \}/g;
  const found = [...contents.matchAll(binary)];
  if (found.length !== 1) throw new Error(`split-jq-loader: expected one embedded WebAssembly in ${path}, found ${found.length}`);
  const wasm = Buffer.from(found[0][1], 'base64');
  contents = contents.replace(binary, () => 'function findWasmBinary() { return "jq.wasm"; }');
  return { loader: contents, wasm };
}

// The MCP SDK (1.x) sorts every incoming message by trying zod schemas in turn: a request is first
// parsed as a result response and as an error response, and each failed parse builds its error
// messages; then its params are parsed once more to find a `task` that tool calls never carry
// (~20 us of a ~60 us tool call in `agentctl mcp`). Each guard here first checks the one key its
// schema requires (`result`, `error`, `method`), and the task lookup first checks that there is a
// task: without it the answer is the same, so only cheaper. Each replacement must match exactly as
// often as it says (once unless told), so an SDK upgrade that changes this code fails the build
// instead of silently dropping the shortcut.
const isObject = 'typeof value === "object" && value !== null';
// The request every tool call is (jsonrpc "2.0", a string or safe-integer id, a method, params an
// object without _meta, no other key), told by hand without zod's ~8 us parse; any other shape
// (_meta, an odd id, a stray key) still goes to JSONRPCRequestSchema, so the answer is the SDK's.
const plainRequest =
  '(value.jsonrpc === "2.0" && (typeof value.id === "string" || Number.isSafeInteger(value.id)) && ' +
  '(value.params === undefined || (typeof value.params === "object" && value.params !== null && !Array.isArray(value.params) && value.params._meta === undefined)) && ' +
  'Object.keys(value).every((key) => key === "jsonrpc" || key === "id" || key === "method" || key === "params"))';
const MCP_SHORTCUTS = {
  'types.js': [
    [
      'export const isJSONRPCRequest = (value) => JSONRPCRequestSchema.safeParse(value).success;',
      `export const isJSONRPCRequest = (value) => ${isObject} && typeof value.method === "string" && "id" in value && (${plainRequest} || JSONRPCRequestSchema.safeParse(value).success);`,
    ],
    ['export const isJSONRPCNotification = (value) => JSONRPCNotificationSchema', `export const isJSONRPCNotification = (value) => ${isObject} && typeof value.method === "string" && JSONRPCNotificationSchema`],
    ['export const isJSONRPCResultResponse = (value) => JSONRPCResultResponseSchema', `export const isJSONRPCResultResponse = (value) => ${isObject} && "result" in value && JSONRPCResultResponseSchema`],
    ['export const isJSONRPCErrorResponse = (value) => JSONRPCErrorResponseSchema', `export const isJSONRPCErrorResponse = (value) => ${isObject} && "error" in value && JSONRPCErrorResponseSchema`],
  ],
  'protocol.js': [
    [
      'const taskCreationParams = isTaskAugmentedRequestParams(request.params) ? request.params.task : undefined;',
      'const taskCreationParams = request.params?.task !== undefined && isTaskAugmentedRequestParams(request.params) ? request.params.task : undefined;',
    ],
    // Each request's cancellation: its AbortSignal made only when someone reads it (below).
    ['const abortController = new AbortController();', 'const abortController = new LazyAbortController();'],
    // Its signal an own property still (a spread of the context copies it), read through one shared
    // getter: a getter written in the literal would make a function and an accessor per request (~1.5 us).
    ['signal: abortController.signal,', '[LAZY_CONTROLLER]: abortController,'],
    [
      'closeStandaloneSSEStream: extra?.closeStandaloneSSEStream\n        };',
      'closeStandaloneSSEStream: extra?.closeStandaloneSSEStream\n        };\n        Object.defineProperty(fullExtra, "signal", LAZY_SIGNAL);',
    ],
    ['abortController.signal.aborted', 'abortController.aborted', 5],
  ],
};

/**
 * The SDK gives every request an AbortController and reads its signal at once, though a tool call
 * that sends one request never listens to it: Node 20 takes ~7 us to make an AbortSignal (an
 * EventTarget given another prototype), the dearest single step of a tool call. This one makes its
 * AbortController when the signal is first read (a wait, a list, a confirmation: anything that
 * listens), aborted with the reason it was given if that came first; until then it only keeps a flag.
 */
const LAZY_ABORT_CONTROLLER = `
const LAZY_CONTROLLER = Symbol("agentctl: the request's LazyAbortController");
const LAZY_SIGNAL = { get() { return this[LAZY_CONTROLLER].signal; }, enumerable: true, configurable: true };
class LazyAbortController {
    #controller;
    #aborted = false;
    #reason;
    get signal() {
        if (this.#controller === undefined) {
            this.#controller = new AbortController();
            if (this.#aborted) this.#controller.abort(this.#reason);
        }
        return this.#controller.signal;
    }
    get aborted() {
        return this.#controller === undefined ? this.#aborted : this.#controller.signal.aborted;
    }
    abort(reason) {
        if (this.#controller !== undefined) this.#controller.abort(reason);
        else if (!this.#aborted) {
            this.#aborted = true;
            this.#reason = reason;
        }
    }
}
`;
export const mcpMessageGuards = {
  name: 'mcp-message-guards',
  setup(b) {
    b.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/](types|shared[\\/]protocol)\.js$/ }, async (args) => {
      let contents = await readFile(args.path, 'utf8');
      const protocol = args.path.endsWith('protocol.js');
      for (const [from, to, expected = 1] of MCP_SHORTCUTS[protocol ? 'protocol.js' : 'types.js']) {
        const count = contents.split(from).length - 1;
        if (count !== expected) throw new Error(`mcp-message-guards: expected ${expected} of ${JSON.stringify(from.slice(0, 50))}... in ${args.path}, found ${count}`);
        contents = contents.replaceAll(from, () => to);
      }
      return { contents: protocol ? contents + LAZY_ABORT_CONTROLLER : contents, loader: 'js' };
    });
  },
};
