import { getAsset } from 'node:sea';

/** build-files.ts in the single executable: the files of dist/ are its assets, by the same names. */
export function readBuildFile(_here: string | undefined, path: string): string {
  return getAsset(path, 'utf8');
}

/** readBuildFile's bytes (`lib/jq.wasm`). */
export function readBuildBytes(_here: string | undefined, path: string): Uint8Array {
  return new Uint8Array(getAsset(path));
}
