// Where a file really is, for a lock kept beside it: a lock beside the name a user gave would let a
// second name of the file (a symbolic link to it, or to a folder above it) hold a lock of its own,
// and two processes would write the one file. Shared by the run-batch ledger and the emulator's
// state file.
import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The file's real path, its symbolic links (of the file or its folders) followed. A file not made
 * yet is where its folder really is (or where its dangling link points).
 */
export async function realPath(path: string, depth = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || depth > 32) return resolve(path);
  }
  const link = await readlink(path).catch(() => undefined);
  if (link !== undefined) return realPath(resolve(dirname(path), link), depth + 1);
  const folder = await realpath(dirname(path)).catch(() => dirname(resolve(path)));
  return join(folder, basename(path));
}
