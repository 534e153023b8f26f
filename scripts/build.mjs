// Bundles the CLI with esbuild. One small entry chunk keeps `--version` and `--help` fast;
// every command's code sits in its own chunk and is loaded only when that command runs.
import { build } from 'esbuild';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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
const { metafile } = await build({
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  metafile: true,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  sourcemap: false,
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS code may ask for __dirname (jq-wasm's Emscripten loader does): an ESM chunk has
  // none, and Node >= 20.11 answers the same question with import.meta.dirname.
  define: { AGENTCTL_VERSION: JSON.stringify(pkg.version), __dirname: 'import.meta.dirname' },
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

// Every command's piped `--help`, rendered once here so that `agentctl ... --help | less` and
// scripts never load commander (src/cli/help-cache.ts serves them; a terminal still uses commander),
// and every command's definition as data, so a run builds its tree without loading any command.

const pagesBundle = join(tmpdir(), `agentctl-help-pages-${process.pid}.mjs`);
await build({
  entryPoints: ['src/cli/help-pages.ts'],
  outfile: pagesBundle,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  define: { AGENTCTL_VERSION: JSON.stringify(pkg.version) },
  banner: { js: REQUIRE_BANNER },
  logLevel: 'warning',
});
try {
  const { renderHelpPages, commandManifest } = await import(pathToFileURL(pagesBundle).href);
  await writeFile(new URL('../dist/help-pages.json', import.meta.url), JSON.stringify(await renderHelpPages()));
  await writeFile(new URL('../dist/command-tree.json', import.meta.url), JSON.stringify(await commandManifest()));
} finally {
  await rm(pagesBundle, { force: true });
}

// The bundle carries its libraries' code, so it carries their licence notices too.
const packages = new Map();
for (const input of Object.keys(metafile.inputs)) {
  const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
  if (match) packages.set(match[2], match[1]);
}
const notices = [];
for (const dir of [...packages.keys()].sort().map((name) => packages.get(name))) {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  const licenceFile = (await readdir(dir)).find((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file));
  const text = licenceFile ? (await readFile(join(dir, licenceFile), 'utf8')).trim() : `Licence: ${manifest.license ?? 'not stated'}`;
  notices.push(`## ${manifest.name} ${manifest.version} (${manifest.license ?? 'licence not stated'})\n\n${text}\n`);
}
await writeFile(
  new URL('../dist/THIRD_PARTY_LICENSES.md', import.meta.url),
  `# Third-party software bundled in agentctl\n\n${notices.join('\n')}`,
);
