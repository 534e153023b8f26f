// Bundles the CLI with esbuild. One small entry chunk keeps `--version` and `--help` fast;
// every command's code sits in its own chunk and is loaded only when that command runs.
import { build } from 'esbuild';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';

// Bundled CommonJS dependencies call require(); an ESM bundle has none, so chunks get one from this
// banner. Creating it costs start-up time in every chunk that loads, so it is kept only in the chunks
// that mention `require` at all (esbuild's require shim lives in one shared chunk).
const REQUIRE_BANNER =
  "import { createRequire as __agentctlCreateRequire } from 'node:module'; const require = __agentctlCreateRequire(import.meta.url);";

// commander loads node:child_process at start-up (several ms: it pulls in net, dgram and more) for
// stand-alone executable subcommands, which agentctl never uses. Its copy is resolved to a stub that
// loads the real module on first use.
const lazyChildProcess = {
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

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  sourcemap: false,
  chunkNames: 'chunks/[name]-[hash]',
  define: { AGENTCTL_VERSION: JSON.stringify(pkg.version) },
  banner: { js: REQUIRE_BANNER },
  plugins: [lazyChildProcess],
  logLevel: 'warning',
});

for (const folder of ['cli', 'chunks']) {
  const dir = new URL(`../dist/${folder}/`, import.meta.url);
  for (const name of await readdir(dir)) {
    const file = new URL(name, dir);
    const code = await readFile(file, 'utf8');
    const rest = code.startsWith(REQUIRE_BANNER) ? code.slice(REQUIRE_BANNER.length) : undefined;
    if (rest !== undefined && !/\brequire\b/.test(rest)) await writeFile(file, rest.replace(/^\n/, ''));
  }
}
