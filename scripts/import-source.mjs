// Imports a TypeScript module of src/ from a build script: bundled with esbuild into a temporary
// ES module (with its libraries), loaded, and the file removed. Used by build.mjs (help pages, the
// command manifest) and docs.mjs (the command reference and man pages).
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REQUIRE_BANNER, TARGET } from './esbuild-plugins.mjs';

/** The package's version, as the build defines it for the code (AGENTCTL_VERSION). */
export async function packageVersion() {
  return JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')).version;
}

/** The exports of `entry` (a path from the repository's root, e.g. 'src/cli/help-pages.ts'). */
export async function importSource(entry) {
  const outfile = join(tmpdir(), `agentctl-${entry.replace(/\W+/g, '-')}-${process.pid}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`../${entry}`, import.meta.url))],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: TARGET,
    define: { AGENTCTL_VERSION: JSON.stringify(await packageVersion()) },
    banner: { js: REQUIRE_BANNER },
    logLevel: 'warning',
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    await rm(outfile, { force: true });
  }
}
