import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A file the build wrote into dist/ beside the code (`help/agentctl_tasks.txt`,
 * `commands/tasks.json`), read from `here`, the caller's `import.meta.dirname`: every chunk of dist/
 * sits one folder below dist/ (and the caller's own folder keeps this module free of one, so that
 * it packs into the entry file). Throws when there is none: running from the sources, callers do
 * without. The single executable reads the same names from its assets (build-files-sea.ts,
 * swapped in by scripts/build-sea.mjs).
 */
export function readBuildFile(here: string, path: string): string {
  return readFileSync(join(here, '..', path), 'utf8');
}

/** readBuildFile's bytes (`lib/jq.wasm`). */
export function readBuildBytes(here: string, path: string): Uint8Array {
  return readFileSync(join(here, '..', path));
}
