// V8's code cache for the bundled chunks: most of a command's start-up beyond bare node is V8
// compiling dist/ (~300 KB of JavaScript for an API call). The code V8 compiled in one run is
// saved in a private cache folder and reused by the next runs, which then skip that work (about
// half the instructions of `tasks list`; README, "Performance"). Node >= 22.1 does this itself
// (module.enableCompileCache); on older Node, the large files are compiled here with a cache.
'use strict';
const { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, sep } = require('node:path');

// Node's module class, without loading node:module (it brings source-map support along).
const Module = module.constructor;
// Smaller files compile faster than their cache loads (bin/agentctl.js sets the cache up with the
// first larger one).
const MIN_SIZE = 8192;
/** Runs longer than this do not write the caches they made (see save()). */
const LONG_RUN_SECONDS = 5;
/**
 * Builds whose caches are kept (this one and the ones that saved theirs last): two installs used in
 * turns (a global one and a project's own) would otherwise drop each other's cache on every run.
 */
const KEPT_BUILDS = 3;

/** A short fingerprint of a text (FNV-1a, 32 bits): names a cache folder, checks nothing. */
function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Compiles the large files of `distDir` with a code cache kept under `cacheRoot`, in a folder named
 * after this build (dist/build-id) and this Node: V8 itself checks little more than the length of
 * the code, so a cache must never meet code of another build. Node's options (`nodeFlags`, e.g.
 * --expose-gc) name a folder of their own: V8 refuses a cache made under other flags, so runs that
 * alternate flags (a bench's probe beside plain runs) would otherwise remake each other's cache on
 * every run. Returns `save`, which writes the caches made in this run, with the functions the run
 * compiled (call it when the run is done), and removes the caches of older builds and Nodes (KEPT_BUILDS are kept).
 * Failing to read or write the cache only costs time.
 */
function useCompileCache(distDir, cacheRoot, nodeVersion, nodeFlags = '') {
  const prefix = join(distDir, sep);
  let cacheDir; // found on the first large file: undefined, then a folder, or '' for no cache
  let buildAndNode = ''; // the start of the folder's name
  const folder = () => {
    if (cacheDir === undefined) {
      let build = '';
      try {
        build = readFileSync(join(distDir, 'build-id'), 'utf8').trim();
      } catch {
        // a build without an id: compile as usual
      }
      buildAndNode = `${build}-node${nodeVersion}`;
      cacheDir = build && join(cacheRoot, nodeFlags ? `${buildAndNode}-${fingerprint(nodeFlags)}` : buildAndNode);
    }
    return cacheDir;
  };
  if (typeof Module.enableCompileCache === 'function') {
    const dir = folder();
    if (dir) Module.enableCompileCache(dir);
    return () => {};
  }
  const made = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename) {
    if (content.length < MIN_SIZE || !filename.startsWith(prefix) || !folder()) return compile.call(this, content, filename);
    const cacheFile = join(cacheDir, filename.slice(prefix.length).replaceAll(sep, '_'));
    let cachedData;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // not cached yet
    }
    const { Script } = require('node:vm');
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) made.push([cacheFile, script]);
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dirname(filename));
  };
  return function save() {
    // A long run (the emulator, a listener, a long wait) makes a poor cache for the short commands
    // that start-up time is for: it compiled a server's code, and V8 has dropped the bytecode of
    // functions it did not run lately. The next short run makes the cache instead.
    if (made.length === 0 || process.uptime() > LONG_RUN_SECONDS) return;
    try {
      mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
      // Written aside and renamed into place: runs side by side (CI shards, a test suite) share the
      // folder, and one must never read a cache another is half-way through writing.
      for (const [file, script] of made.splice(0)) {
        writeFileSync(`${file}.${process.pid}.tmp`, script.createCachedData(), { mode: 0o600 });
        renameSync(`${file}.${process.pid}.tmp`, file);
      }
      dropOldBuilds(cacheRoot, buildAndNode);
    } catch {
      // a read-only or full disk: the next run compiles again
    }
  };
}

/**
 * Removes the caches of all but the KEPT_BUILDS builds (and Nodes) that saved theirs last, this one
 * among them. A build's folders (one per set of Node flags) go together; their newest write dates them.
 */
function dropOldBuilds(cacheRoot, current) {
  const builds = new Map();
  for (const name of readdirSync(cacheRoot)) {
    const build = name.replace(/-[0-9a-f]{8}$/, '');
    let time = 0;
    try {
      time = statSync(join(cacheRoot, name)).mtimeMs;
    } catch {
      continue; // removed meanwhile by another run
    }
    const entry = builds.get(build) ?? { names: [], time: 0 };
    entry.names.push(name);
    entry.time = Math.max(entry.time, build === current ? Infinity : time);
    builds.set(build, entry);
  }
  const old = [...builds.values()].sort((a, b) => b.time - a.time).slice(KEPT_BUILDS);
  for (const { names } of old) for (const name of names) rmSync(join(cacheRoot, name), { recursive: true, force: true });
}

module.exports = { useCompileCache, dropOldBuilds };
