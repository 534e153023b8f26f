import { randomBytes } from 'node:crypto';
import { link, open, rename, rm } from 'node:fs/promises';

/**
 * Replaces a file in one step: written to a temporary file beside it, fsynced, then renamed over it,
 * so a kill or a full disk during the write leaves the previous file whole, never a truncated one.
 * A failed write removes its temporary file. `sync: false` skips the fsync: still whole after a kill
 * (the rename is seen at once), only not yet safe from a power cut. `exclusive: true` never
 * replaces a file that is there (EEXIST): the whole file is linked into place instead of renamed.
 */
export async function writeFileAtomically(path: string, text: string | Uint8Array, options: { sync?: boolean; exclusive?: boolean } = {}): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      if (options.sync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.exclusive) await link(temporary, path);
    else await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  if (options.exclusive) await rm(temporary, { force: true });
}
