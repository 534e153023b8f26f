// A disk that misbehaves (short writes, a full disk, slow syncs) for the code under test: functions
// of node:fs replaced for every module of this test worker, their named imports included (Node's
// syncBuiltinESMExports), until the file is done. A module mock would do it too, but only in a
// worker of its own that imports everything again (~1.5 s of CPU per file).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll } from 'vitest';

type Fs = typeof fs;
type Replacements = { [Name in keyof Fs]?: Fs[Name] };

/** For this test file: `replace(original)` gives the replacements, each usually calling the original. */
export function patchFs(replace: (original: Fs) => Replacements): void {
  const original = { ...fs };
  let restore: Replacements = {};
  beforeAll(() => {
    const replacements = replace(original);
    restore = Object.fromEntries(Object.keys(replacements).map((name) => [name, original[name as keyof Fs]]));
    Object.assign(fs, replacements);
    syncBuiltinESMExports();
  });
  afterAll(() => {
    Object.assign(fs, restore);
    syncBuiltinESMExports();
  });
}
