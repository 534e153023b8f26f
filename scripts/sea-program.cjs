// In the single executable (scripts/build-sea.mjs), what `import('./run.js')` of src/cli/main.ts
// loads: the program beyond `--version` and piped `--help`, kept as the asset run.js. The
// executable's own code cache (useCodeCache) holds only what V8 compiles before the script runs,
// and a command compiles most of its code as it runs (an API call then took twice as long as
// `node bin/agentctl.js`). So run.js is compiled here with V8's code cache of an earlier run, kept
// as bin/compile-cache.js keeps dist/'s: in a private folder named after this build and this Node,
// written after a short run, the caches of older builds removed (the last three builds' kept); AGENTCTL_NO_COMPILE_CACHE=1 turns it off.
/* global AGENTCTL_SEA_BUILD_ID */
'use strict';
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
// Bundled in (build-sea.mjs stubs only the launcher's `./compile-cache.js`): the one rule for which caches stay.
const { dropOldBuilds } = require('../bin/compile-cache.js');
const { join } = require('node:path');
const { getAsset } = require('node:sea');
const { Script } = require('node:vm');

/** Runs longer than this do not write the cache they made (see bin/compile-cache.js). */
const LONG_RUN_SECONDS = 5;
const FILENAME = 'agentctl/run.js';

const env = process.env;
const source = getAsset('run.js', 'utf8');
// Defined by scripts/build-sea.mjs: a fingerprint of run.js.
const build = `${AGENTCTL_SEA_BUILD_ID}-node${process.version}-${process.arch}`;
const root = join(env.XDG_CACHE_HOME || join(env.HOME || require('node:os').homedir(), '.cache'), 'agentctl', 'v8-code-sea');
const cacheFile = env.AGENTCTL_NO_COMPILE_CACHE ? undefined : join(root, build, 'run.js');

let cachedData;
try {
  if (cacheFile) cachedData = readFileSync(cacheFile);
} catch {
  // not cached yet
}
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: FILENAME, cachedData });
if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
  process.once('exit', () => {
    if (process.uptime() > LONG_RUN_SECONDS) return;
    try {
      mkdirSync(join(root, build), { recursive: true, mode: 0o700 });
      writeFileSync(cacheFile, script.createCachedData(), { mode: 0o600 });
      dropOldBuilds(root, build);
    } catch {
      // a read-only or full disk: the next run compiles again
    }
  });
}
// The program needs only Node's built-in modules, which are all this script's require loads.
script.runInThisContext()(module.exports, require, module, FILENAME, 'agentctl');
