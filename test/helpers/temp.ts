// Temporary folders for tests, removed once the file that made them is done (test/setup.ts): a
// run made ~500 and left them all in the system's temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

export function tempDir(prefix = 'agentctl-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A folder the files of one run share (`what` names it, e.g. the packed package), removed with the run. */
export function sharedRunFolder(what: string, runId: string): string {
  return join(tmpdir(), `agentctl-${what}-${runId}`);
}

/**
 * Removes every folder tempDir made so far. A process a test started may still be writing into one
 * as it ends (a killed emulator saving its state): that folder is tried again, then left behind,
 * which fails no test.
 */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
    } catch {
      // left for the system to clear
    }
  }
}
