// What a file is, in words, for refusing a folder, a FIFO or a link where a regular file was wanted.
import type { Stats } from 'node:fs';

/** What fs.Stats, fs.BigIntStats and a directory entry (fs.Dirent) all tell of a file's type. */
export type FileType = Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSymbolicLink' | 'isSocket'>;

/** "a regular file", "a folder", "a FIFO", "a symbolic link", "a socket" or "a device". */
export function fileKind(stats: FileType): string {
  if (stats.isFile()) return 'a regular file';
  return stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a FIFO' : stats.isSymbolicLink() ? 'a symbolic link' : stats.isSocket() ? 'a socket' : 'a device';
}
