// What a build of dist/ is made from, as one hash. The build writes it beside its output, and the
// test set-up builds again only when it differs: a suite run right after `npm run build` (as CI does)
// or a second run with no change in between skips the ~7 s build.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FOLDERS = ['src', 'scripts'];
// The lockfile stands for the bundled libraries in node_modules.
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

/** Where the build leaves the hash of what it was built from. */
export const INPUTS_STAMP = join(ROOT, 'dist', 'inputs-sha256');

/** The hash of every file the build reads from this repository, and of the settings it obeys. */
export function buildInputsHash() {
  const files = [...FILES];
  for (const folder of FOLDERS) {
    for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(relative(ROOT, join(entry.parentPath, entry.name)));
    }
  }
  const hash = createHash('sha256').update(`readable build: ${process.env.AGENTCTL_READABLE_BUILD === '1'}\n`);
  for (const file of files.sort()) hash.update(`${file}\0`).update(readFileSync(join(ROOT, file))).update('\0');
  return hash.digest('hex');
}

/** Whether dist/ was built from the files as they are now. */
export function distIsCurrent() {
  try {
    return readFileSync(INPUTS_STAMP, 'utf8').trim() === buildInputsHash();
  } catch {
    return false;
  }
}
