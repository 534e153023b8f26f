// Bundles the CLI with esbuild. One small entry chunk keeps `--version` and `--help` fast;
// every command's code sits in its own chunk and is loaded only when that command runs.
//
// dist/ is CommonJS (dist/package.json says so) although the sources are ES modules: loading an ES
// module starts Node's ESM loader, which alone costs ~1.2x a bare `node -e 0`, and importing a
// built-in as an ES module builds a facade of all its exports (for node:process that creates
// stdin, stdout and the diagnostic report). esbuild splits only ES modules into chunks, so the
// chunks are bundled as ESM first and each is then rewritten to CommonJS, lazy import() calls
// becoming require(). The launcher bin/agentctl.js is CommonJS too (bin/package.json).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { build, transform } from 'esbuild';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUIRE_BANNER, TARGET, lazyChildProcess, mcpMessageGuards, plainProcess, splitJqLoader } from './esbuild-plugins.mjs';
import { INPUTS_STAMP, buildInputsHash } from './build-inputs.mjs';
import { importSource } from './import-source.mjs';


/** The file of a command's piped help page: words of a command never hold `_`. Same rule as src/cli/help-cache.ts. */
const helpPageName = (path) => `${['agentctl', ...(path ? path.split(' ') : [])].join('_')}.txt`;

// `import.meta` has no CommonJS equivalent that esbuild fills in: chunks that use it get this line
// first, its URL computed on first use (node:url is not otherwise loaded for `--version`).
const IMPORT_META = '__agentctlImportMeta';
const IMPORT_META_LINE = `const ${IMPORT_META}={dirname:__dirname,filename:__filename,get url(){return require("node:url").pathToFileURL(__filename).href}};`;

// Libraries that cost more to load than the commands that never use them can afford: chalk
// (~17 M instructions, about 4 ms; JSON and piped output have no colour) and cli-table3 (~22 M:
// only a terminal shows tables). Each is bundled on its own into dist/lib/ (they share nothing with
// agentctl's code), and agentctl's imports of it get a stand-in that requires that file on first use.
const DEFERRED = {
  chalk: {
    entry: "export { Chalk } from 'chalk';",
    standIn: "let real; export class Chalk { constructor(options) { return new (real ??= require('../lib/chalk.js')).Chalk(options); } }",
  },
  'cli-table3': {
    entry: "module.exports = require('cli-table3');",
    standIn: "let real; module.exports = function Table(options) { return new (real ??= require('../lib/cli-table3.js'))(options); };",
  },
};
const deferredLibraries = {
  name: 'deferred-libraries',
  setup(b) {
    const names = new RegExp(`^(${Object.keys(DEFERRED).join('|')})$`);
    // Only agentctl's own imports: a library that imports chalk itself (ora) is lazy as a whole.
    b.onResolve({ filter: names }, (args) => (/[\\/]src[\\/]/.test(args.importer) ? { path: args.path, namespace: 'agentctl-deferred' } : undefined));
    b.onResolve({ filter: /^\.\.\/lib\// }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'agentctl-deferred' }, (args) => ({ contents: DEFERRED[args.path].standIn, loader: 'js' }));
  },
};

// AGENTCTL_READABLE_BUILD=1 keeps names and lines, for reading CPU profiles of the built program.
const minify = process.env.AGENTCTL_READABLE_BUILD !== '1';
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const dist = new URL('../dist/', import.meta.url);

// Taken before building: a file edited while the build runs makes the next test run build again.
const inputsHash = buildInputsHash();
await rm(dist, { recursive: true, force: true });
const { metafile, outputFiles } = await build({
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  metafile: true,
  write: false,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: TARGET,
  minify,
  sourcemap: false,
  chunkNames: 'chunks/[name]-[hash]',
  // (Bundled CommonJS code that asks for __dirname, like jq-wasm's Emscripten loader, gets the
  // chunk's own folder: dist/ is CommonJS.)
  define: { AGENTCTL_VERSION: JSON.stringify(pkg.version), 'import.meta': IMPORT_META },
  plugins: [lazyChildProcess, plainProcess, mcpMessageGuards, deferredLibraries],
  logLevel: 'warning',
});
const inputs = Object.keys(metafile.inputs);
const libraries = new Map();
for (const [name, { entry }] of Object.entries(DEFERRED)) {
  const library = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'js' },
    metafile: true,
    write: false,
    outfile: `dist/lib/${name}.js`,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: TARGET,
    minify,
    plugins: [plainProcess],
    logLevel: 'warning',
  });
  libraries.set(`lib/${name}.js`, library.outputFiles[0].text);
  inputs.push(...Object.keys(library.metafile.inputs));
}

// jq-wasm's Emscripten loader and jq's WebAssembly, apart (src/output/jq-glue.ts reads both, for
// --jq on this thread and for the worker thread that runs it over a stream: a worker starts from
// source, not from a chunk).
const jqLoader = createRequire(import.meta.url).resolve('jq-wasm/dist/build/jq.js');
const jq = splitJqLoader(await readFile(jqLoader, 'utf8'), jqLoader);
libraries.set('lib/jq.js', jq.loader);
libraries.set('lib/jq.wasm', jq.wasm);
inputs.push(relative(process.cwd(), jqLoader));

// Each chunk as CommonJS, by its path in dist/ ('cli/main.js', 'chunks/run-XXXX.js').
/** A file's path in dist/, with `/` on every system. */
const distPath = (file) => relative(fileURLToPath(dist), file).split(sep).join('/');
const modules = new Map();
for (const file of outputFiles) {
  // `dynamic-import: false` turns each lazy import('./chunk.js') into a require() of that chunk.
  const { code } = await transform(file.text, { format: 'cjs', platform: 'node', target: TARGET, minify, supported: { 'dynamic-import': false } });
  modules.set(distPath(file.path), code.includes(IMPORT_META) ? IMPORT_META_LINE + code : code);
}

// Chunks are packed into few files, each chunk still evaluated only when first required: a command
// needs some thirty of them, and every file Node loads costs ~0.3 ms of resolving and reading, more
// than parsing many small chunks together. Two packs: the entry (cli/main.js) holds what `--version`
// and piped `--help` need, so they read one file; chunks/pack.js holds the other small chunks.
// A pack's loader is its exports' `__agentctlPack`; requires of packed chunks are relinked to it.
const ENTRY = 'cli/main.js';
const PACK = 'chunks/pack.js';
const PACK_LIMIT = 16_384;
const outputPath = (path) => distPath(join(process.cwd(), path));
const startUp = new Set();
const visit = (path) => {
  if (startUp.has(path)) return;
  startUp.add(path);
  for (const dependency of metafile.outputs[`dist/${path}`].imports) if (dependency.kind === 'import-statement' && !dependency.external) visit(outputPath(dependency.path));
};
visit(ENTRY);
/** The pack that holds a chunk (undefined: a file of its own). `__filename` and `__dirname` must stay the chunk's own. */
const packOf = new Map();
for (const [path, code] of modules) {
  const ownFile = !/\b__(file|dir)name\b/.test(code);
  if (startUp.has(path) && (path === ENTRY || ownFile)) packOf.set(path, ENTRY);
  // The response schemas load only to explain a response the predicate refuses: once zod's code sits
  // in a chunk of its own (shared with `agentctl mcp`) they are small, but still stay out of the pack
  // that every API command reads.
  // jq's thread for `--jsonl --jq` starts before the command's code loads (src/cli/main.ts): a file of
  // its own, so that starting it does not wait for the pack to load.
  else if (path.startsWith('chunks/') && code.length < PACK_LIMIT && ownFile && !/^chunks\/(responses|jq-thread)-/.test(path)) packOf.set(path, PACK);
}
const REQUIRE = /\brequire\("(\.{1,2}\/[^"]+)"\)/g;
/**
 * `require("./chunk.js")` in the code of `from`, now in `file` (a pack or its own file): relinked to
 * the pack that holds the chunk, or to the chunk's file from where the code now is.
 */
function relink(file, from, code) {
  return code.replace(REQUIRE, (call, target) => {
    const id = posix.join(posix.dirname(from), target);
    const pack = packOf.get(id);
    const path = (to) => JSON.stringify(posix.relative(posix.dirname(file), to).replace(/^(?!\.)/, './'));
    if (pack === undefined) return `require(${path(id)})`;
    return pack === file ? `__pack(${JSON.stringify(id)})` : `require(${path(pack)}).__agentctlPack(${JSON.stringify(id)})`;
  });
}
/** A pack's code; it exports `exportsOf`'s exports (or nothing but the loader). */
function packCode(file, exportsOf) {
  const members = [...packOf].filter(([, pack]) => pack === file).map(([id]) => id);
  const parts = members.map((id) => `${JSON.stringify(id)}:function(module,exports,require,__pack){${relink(file, id, modules.get(id))}\n}`);
  const exported = exportsOf ? `__pack(${JSON.stringify(exportsOf)})` : '{}';
  return `const parts={${parts.join(',')}},loaded={};function __pack(id){let m=loaded[id];if(!m){m=loaded[id]={exports:{}};parts[id].call(m.exports,m,m.exports,require,__pack)}return m.exports}module.exports=${exported};Object.defineProperty(module.exports,"__agentctlPack",{value:__pack});`;
}
// ES modules run in strict mode: so do their CommonJS forms.
const STRICT = '"use strict";';
await mkdir(new URL('cli/', dist), { recursive: true });
await mkdir(new URL('chunks/', dist), { recursive: true });
await mkdir(new URL('lib/', dist), { recursive: true });
const written = [
  [ENTRY, STRICT + packCode(ENTRY, ENTRY)],
  [PACK, STRICT + packCode(PACK)],
];
for (const [path, code] of modules) if (!packOf.has(path)) written.push([path, STRICT + relink(path, path, code)]);
for (const [path, code] of libraries) written.push([path, code]);
const buildId = createHash('sha256');
for (const [path, code] of written) {
  await writeFile(new URL(path, dist), code);
  buildId.update(path).update(code);
}
await writeFile(new URL('package.json', dist), '{ "type": "commonjs" }\n');
// Names this build's code, for bin/compile-cache.js: code cached from another build is never used.
await writeFile(new URL('build-id', dist), `${buildId.digest('hex').slice(0, 16)}\n`);

// Every command's piped `--help`, rendered once here so that `agentctl ... --help | less` and
// scripts never load commander (src/cli/help-cache.ts serves them; a terminal still uses commander),
// and every command's definition as data, so a run builds its tree without loading any command.

const { renderHelpPages, commandManifest } = await importSource('src/cli/help-pages.ts');
// One file per page (dist/help/agentctl_tasks_create.txt): reading one small file beats parsing all of them.
await mkdir(new URL('help/', dist), { recursive: true });
for (const [path, page] of Object.entries(await renderHelpPages())) {
  await writeFile(new URL(`help/${helpPageName(path)}`, dist), page);
}
// One file per noun: a run reads only the definitions of the noun it runs.
await mkdir(new URL('commands/', dist), { recursive: true });
for (const [noun, definitions] of Object.entries(await commandManifest())) {
  await writeFile(new URL(`commands/${noun}.json`, dist), JSON.stringify(definitions));
}

// The library entries (package.json "exports"): `agentctl/emulator`, the emulator alone, for users'
// own test suites, and `agentctl/client`, a typed client of the service on the CLI's api/ layer. Each
// is one CommonJS file and one ES module (not minified: users step through them), with type
// declarations written by tsc. Nothing of the CLI's start-up path loads them.
// The client never opens a connection pool (only a batch does): undici stays out of its bundle.
const noConnectionPool = {
  name: 'no-connection-pool',
  setup(b) {
    b.onResolve({ filter: /\/undici-pool\.js$/ }, (args) => ({ path: args.path, namespace: 'no-connection-pool' }));
    b.onLoad({ filter: /.*/, namespace: 'no-connection-pool' }, () => ({
      contents: "export function openPool() { throw new Error('agentctl/client has no connection pool'); }",
      loader: 'js',
    }));
  },
};
const LIBRARIES = [
  { entry: 'src/emulator/index.ts', out: 'dist/emulator/index', plugins: [] },
  { entry: 'src/client/index.ts', out: 'dist/client/index', plugins: [noConnectionPool], define: { AGENTCTL_VERSION: JSON.stringify(pkg.version) } },
];
for (const library of LIBRARIES) {
  for (const [format, extension] of [['cjs', 'js'], ['esm', 'mjs']]) {
    const built = await build({
      entryPoints: [library.entry],
      outfile: `${library.out}.${extension}`,
      metafile: true,
      bundle: true,
      format,
      platform: 'node',
      target: TARGET,
      define: library.define,
      plugins: library.plugins,
      ...(format === 'esm' ? { banner: { js: REQUIRE_BANNER } } : {}),
      logLevel: 'warning',
    });
    inputs.push(...Object.keys(built.metafile.inputs));
  }
}
{
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const declarations = fileURLToPath(new URL('types/', dist));
  execFileSync(process.execPath, [tsc, ...LIBRARIES.map((library) => library.entry), 'src/api/undici-pool-path.d.ts', '--declaration', '--emitDeclarationOnly', '--outDir', declarations, '--rootDir', 'src',
    '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--lib', 'ES2023', '--types', 'node', '--strict', '--skipLibCheck',
    '--esModuleInterop', '--resolveJsonModule'], { stdio: 'inherit' });
  for (const library of LIBRARIES) {
    const name = library.out.split('/')[1];
    const entry = `export * from '../types/${name}/index.js';\n`;
    await writeFile(new URL(`${name}/index.d.ts`, dist), entry);
    await writeFile(new URL(`${name}/index.d.mts`, dist), entry);
  }
}

// The bundle carries its libraries' code, so it carries their licence notices too.
const packages = new Map();
for (const input of inputs) {
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
// Last, so that a build cut short leaves no stamp and the next test run builds again.
await writeFile(INPUTS_STAMP, `${inputsHash}\n`);
