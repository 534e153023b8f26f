import { getAsset } from 'node:sea';

/** build-files.ts in the single executable: the files of dist/ are its assets, by the same names. */
export function readBuildFile(_here: string | undefined, path: string): string {
  return getAsset(path, 'utf8');
}
