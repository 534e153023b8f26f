// The repository stands alone: no tracked file may read or cite a path outside it (a relative path
// that climbs above the repository's root, or an absolute path into this machine's work folders).
// A clone, a tarball or an installed package has nothing beside it. Run by `npm run lint`.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const files = trackedFiles();
// A run of '../' followed by a name; and absolute paths into the machine's shared work folders.
const climbing = /(?:\.\.\/)+[\w.@-]+/g;
const absolute = /\/work\/(?:shared|main|\.mirror|\.library)\b/g;

const problems = [];
for (const file of files) {
  if (file === 'package-lock.json') continue;
  let text;
  try {
    text = readFileSync(resolve(root, file), 'utf8');
  } catch {
    continue; // a submodule or a file deleted in the work tree
  }
  if (text.includes('\0')) continue; // binary
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    for (const match of line.matchAll(climbing)) {
      const target = resolve(root, dirname(file), match[0]);
      const inside = relative(root, target);
      if (inside.startsWith('..' + sep) || inside === '..') problems.push(`${file}:${index + 1}: ${match[0]} points outside the repository`);
    }
    for (const match of line.matchAll(absolute)) problems.push(`${file}:${index + 1}: ${match[0]} is a path on the developers' machine`);
  });
}

/** git's tracked files; in a copy without git (CI's lone copy), every file but installs and builds. */
function trackedFiles() {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\0').filter(Boolean);
  } catch {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, resolve(entry.parentPath, entry.name)))
      .filter((file) => !/^(node_modules|dist|coverage|\.git)(\/|$)/.test(file));
  }
}

if (problems.length > 0) {
  console.error(`${problems.length} reference(s) outside the repository (copy what is needed inside it and cite the copy):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`standalone: ${files.length} tracked files cite nothing outside the repository`);
