// `npm run sea`: agentctl as one executable file, for machines without Node, with Node's single
// executable application support (SEA). SEA runs one CommonJS script, which can require only
// built-ins: the launcher bin/agentctl.js bundled with src/cli/main.ts (what `--version` and piped
// `--help` need), with V8's code cache for it (useCodeCache: --version is three times slower
// without). The rest of the program (src/cli/run.ts and all it loads) is one more bundle, the asset
// run.js, which scripts/sea-program.cjs compiles with a code cache of its own (see there). The
// files dist/ holds beside its code (piped help pages, command definitions, licence notices) are
// assets too. postject injects the blob into a copy of the node executable that runs this script.
// The usual build (dist/, `node bin/agentctl.js`) is untouched.
//
// Usage: node scripts/build-sea.mjs [--out FILE]   (default build/agentctl; needs dist/: `npm run sea` builds both)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { TARGET, lazyChildProcess, plainProcess } from './esbuild-plugins.mjs';

const started = Date.now();
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'build', process.platform === 'win32' ? 'agentctl.exe' : 'agentctl') } } });
const out = resolve(values.out);
if (!existsSync(join(dist, 'commands'))) {
  console.error('build-sea: dist/ is not built: run `npm run build` first (or `npm run sea`, which does both)');
  process.exit(2);
}
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

// What dist/ holds beside its code comes from the assets.
const assetFiles = {
  name: 'asset-files',
  setup(b) {
    // (src/cli's imports, and src/output/jq-glue.ts's of the files jq's loader and worker read.)
    b.onResolve({ filter: /^\.\.\/contract\/build-files\.js$/ }, (args) => ({ path: join(args.resolveDir, args.path.replace('build-files.js', 'build-files-sea.ts')) }));
  },
};
// The launcher's program is the sources (not dist/'s chunks), its run.js the asset (sea-program.cjs),
// and the launcher's own code cache has no file to compile.
const launcher = {
  name: 'launcher',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/dist\/cli\/main\.js$/ }, () => ({ path: join(root, 'src', 'cli', 'main.ts') }));
    b.onResolve({ filter: /^\.\/run\.js$/ }, (args) => (args.importer.endsWith(join('cli', 'main.ts')) ? { path: join(root, 'scripts', 'sea-program.cjs') } : undefined));
    b.onResolve({ filter: /^\.\/compile-cache\.js$/ }, () => ({ path: 'compile-cache', namespace: 'agentctl-sea' }));
    b.onLoad({ filter: /.*/, namespace: 'agentctl-sea' }, () => ({ contents: 'exports.useCompileCache = () => () => {};', loader: 'js' }));
  },
};
const common = { bundle: true, format: 'cjs', platform: 'node', target: TARGET, minify: true, logLevel: 'warning' };

const work = await mkdtemp(join(tmpdir(), 'agentctl-sea-'));
try {
  const program = join(work, 'run.js');
  await build({
    ...common,
    entryPoints: [join(root, 'src', 'cli', 'run.ts')],
    outfile: program,
    define: { AGENTCTL_VERSION: JSON.stringify(pkg.version) },
    plugins: [assetFiles, lazyChildProcess, plainProcess],
  });
  const buildId = createHash('sha256').update(await readFile(program)).digest('hex').slice(0, 16);
  const main = join(work, 'agentctl.cjs');
  await build({
    ...common,
    entryPoints: [join(root, 'bin', 'agentctl.js')],
    outfile: main,
    define: { AGENTCTL_VERSION: JSON.stringify(pkg.version), AGENTCTL_SINGLE_EXECUTABLE: 'true', AGENTCTL_SEA_BUILD_ID: JSON.stringify(buildId) },
    plugins: [launcher, assetFiles, lazyChildProcess, plainProcess],
  });

  const assets = { 'run.js': program, 'THIRD_PARTY_LICENSES.md': join(dist, 'THIRD_PARTY_LICENSES.md'), 'lib/jq.js': join(dist, 'lib', 'jq.js'), 'lib/jq.wasm': join(dist, 'lib', 'jq.wasm') };
  for (const folder of ['help', 'commands']) {
    for (const file of await readdir(join(dist, folder))) assets[`${folder}/${file}`] = join(dist, folder, file);
  }
  const blob = join(work, 'agentctl.blob');
  const config = join(work, 'sea-config.json');
  await writeFile(config, JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }));
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'pipe' }); // a failure's message holds its stderr

  // Written beside the target and renamed into place: a failed build leaves no half-made executable.
  await mkdir(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  await copyFile(process.execPath, partial);
  await chmod(partial, 0o755);
  const macOS = process.platform === 'darwin';
  if (macOS) execFileSync('codesign', ['--remove-signature', partial]);
  const { inject } = createRequire(import.meta.url)('postject');
  // postject's ELF reader warns about each note section it cannot name (harmless, a dozen lines).
  const warn = console.warn;
  console.warn = (...args) => (/^warning: Can't find string offset for section name/.test(String(args[0])) ? undefined : warn(...args));
  try {
    await inject(partial, 'NODE_SEA_BLOB', await readFile(blob), {
      sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
      ...(macOS ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
  } finally {
    console.warn = warn;
  }
  if (macOS) execFileSync('codesign', ['--sign', '-', partial]);
  await rename(partial, out);
  const size = (await stat(out)).size / 1024 / 1024;
  console.error(`build-sea: ${relative(process.cwd(), out) || out} (${size.toFixed(0)} MB, node ${process.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await rm(work, { recursive: true, force: true });
}
