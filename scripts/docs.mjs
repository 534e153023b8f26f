// Regenerates the command reference (docs/commands/) and the man pages (man/) from the command
// tree, and package.json's list of man pages: `npm run docs`. Rerun it after changing any command; a test fails while they are stale.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { importSource, packageVersion } from './import-source.mjs';

const root = new URL('../', import.meta.url);
const { renderReference } = await importSource('src/cli/help-pages.ts');
const files = await renderReference(await packageVersion());

// Generated files no command produces any more (a command removed or renamed) go.
const generated = { 'docs/commands/': /^(README|agentctl.*)\.md$/, 'man/': /^agentctl.*\.1$/ };
for (const [folder, name] of Object.entries(generated)) {
  await mkdir(new URL(folder, root), { recursive: true });
  for (const file of await readdir(new URL(folder, root))) {
    if (name.test(file) && !(`${folder}${file}` in files)) await rm(new URL(`${folder}${file}`, root));
  }
}
for (const [path, text] of Object.entries(files)) {
  await mkdir(new URL(`${dirname(path)}/`, root), { recursive: true });
  await writeFile(new URL(path, root), text);
  console.log(path);
}

// package.json's "man" lists every page, so that `man agentctl-tasks` works after a global install.
const manifestFile = new URL('package.json', root);
const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
const pages = Object.keys(files).filter((path) => path.startsWith('man/')).map((path) => `./${path}`);
if (JSON.stringify(manifest.man) !== JSON.stringify(pages)) {
  manifest.man = pages;
  await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log('package.json "man"');
}

// docs/emulator.md's table of known differences and docs/conformance.md's table of rules are the
// rules module's one list (src/conformance/rules.ts); a test fails while either page is stale.
const rules = await importSource('src/conformance/rules.ts');
for (const [page, start, end, table] of [
  ['docs/emulator.md', rules.KNOWN_DIFFERENCES_START, rules.KNOWN_DIFFERENCES_END, rules.renderKnownDifferences()],
  ['docs/conformance.md', rules.RULES_START, rules.RULES_END, rules.renderRules()],
]) {
  const file = new URL(page, root);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined || !text.includes(start)) continue;
  const next = rules.replaceBetween(text, start, end, table);
  if (next !== text) {
    await writeFile(file, next);
    console.log(page);
  }
}
