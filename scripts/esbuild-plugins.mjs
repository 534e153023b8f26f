// What both builds share: scripts/build.mjs (dist/, what `node bin/agentctl.js` runs) and
// scripts/build-sea.mjs (the single executable).

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
