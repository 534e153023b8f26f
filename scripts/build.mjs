// Bundles the CLI with esbuild. One small entry chunk keeps `--version` and `--help` fast;
// every command's code sits in its own chunk and is loaded only when that command runs.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

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
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __agentctlCreateRequire } from 'node:module'; const require = __agentctlCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
