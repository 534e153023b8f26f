import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

// bin/compile-cache.js keeps V8's compiled code of dist/ between runs. It hooks Node's module
// loader, so each case runs in a child process of its own over a small fake dist/.
const MODULE = join(import.meta.dirname, '..', '..', 'bin', 'compile-cache.js');

function fakeBuild(root: string, buildId: string, value: number): string {
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'chunks'), { recursive: true });
  writeFileSync(join(dist, 'build-id'), `${buildId}\n`);
  // Large enough to be cached (smaller files compile faster than a cache loads).
  writeFileSync(join(dist, 'chunks', 'x.js'), `module.exports = ${value};\n// ${'-'.repeat(9000)}\n`);
  return dist;
}

/** Loads the chunk through the cache, as the launcher does, and returns what it exported. */
function load(dist: string, cache: string, nodeFlags = '', runSeconds = 0.1): string {
  const script = `const save = require(${JSON.stringify(MODULE)}).useCompileCache(${JSON.stringify(dist)}, ${JSON.stringify(cache)}, 'v1', ${JSON.stringify(nodeFlags)});
process.stdout.write(String(require(${JSON.stringify(join(dist, 'chunks', 'x.js'))})));
process.uptime = () => ${runSeconds};
save();`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout;
}

// Node >= 22.1 keeps the cache itself (module.enableCompileCache): nothing of ours to test there.
const nodeKeepsIt = 'enableCompileCache' in (await import('node:module')).default;

describe.skipIf(nodeKeepsIt)('the compile cache (Node < 22.1)', () => {
  it('keeps the code of a build for the next run, in a private folder', () => {
    const root = tempDir('agentctl-cc-');
    const dist = fakeBuild(root, 'build1', 1);
    const cache = join(root, 'cache');
    expect(load(dist, cache)).toBe('1');
    expect(readdirSync(join(cache, 'build1-nodev1'))).toEqual(['chunks_x.js']);
    expect(load(dist, cache)).toBe('1');
  });

  it('never runs code cached from another build, even of the same length', () => {
    const root = tempDir('agentctl-cc-');
    const cache = join(root, 'cache');
    const one = join(root, 'one');
    const two = join(root, 'two');
    expect(load(fakeBuild(one, 'build1', 1), cache)).toBe('1');
    expect(load(fakeBuild(two, 'build2', 2), cache)).toBe('2');
    expect(load(fakeBuild(one, 'build1', 1), cache)).toBe('1');
  });

  it('keeps the caches of two builds used in turns (a global install and a project\'s), dropping only builds older than the last three', () => {
    const root = tempDir('agentctl-cc-');
    const cache = join(root, 'cache');
    const builds = [1, 2, 3, 4].map((n) => fakeBuild(join(root, `b${n}`), `build${n}`, n));
    load(builds[0]!, cache);
    load(builds[1]!, cache);
    expect(readdirSync(cache).sort()).toEqual(['build1-nodev1', 'build2-nodev1']);
    // Saved one after another: build1's cache is the oldest (dated a minute back, not left to the clock's grain).
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(cache, 'build1-nodev1'), past, past);
    load(builds[2]!, cache);
    load(builds[3]!, cache);
    expect(readdirSync(cache).sort()).toEqual(['build2-nodev1', 'build3-nodev1', 'build4-nodev1']);
  });

  it('leaves the cache to short runs: a long one (the emulator, a listener) writes none', () => {
    const root = tempDir('agentctl-cc-');
    const dist = fakeBuild(root, 'build1', 1);
    const cache = join(root, 'cache');
    expect(load(dist, cache, '', 600)).toBe('1');
    expect(existsSync(join(cache, 'build1-nodev1'))).toBe(false);
    expect(load(dist, cache)).toBe('1');
    expect(readdirSync(join(cache, 'build1-nodev1'))).toEqual(['chunks_x.js']);
  });

  it('keeps a cache per set of Node flags, so runs under other flags do not remake it every time', () => {
    const root = tempDir('agentctl-cc-');
    const cache = join(root, 'cache');
    const dist = fakeBuild(root, 'build1', 1);
    expect(load(dist, cache)).toBe('1');
    expect(load(dist, cache, '--expose-gc')).toBe('1');
    const folders = readdirSync(cache).sort();
    expect(folders).toHaveLength(2);
    expect(folders[0]).toBe('build1-nodev1');
    expect(folders[1]).toMatch(/^build1-nodev1-[0-9a-f]{8}$/);
    expect(readdirSync(join(cache, folders[1]!))).toEqual(['chunks_x.js']);
    // Dropped, they go together: three builds saved after them.
    const past = new Date(Date.now() - 60_000);
    for (const folder of folders) utimesSync(join(cache, folder), past, past);
    for (const n of [2, 3, 4]) expect(load(fakeBuild(join(root, `b${n}`), `build${n}`, n), cache, '--expose-gc')).toBe(String(n));
    expect(readdirSync(cache).filter((name) => name.startsWith('build1'))).toEqual([]);
  });

  it('compiles as usual when the build has no id', () => {
    const root = tempDir('agentctl-cc-');
    const dist = fakeBuild(root, 'x', 3);
    writeFileSync(join(dist, 'build-id'), '');
    const cache = join(root, 'cache');
    expect(load(dist, cache)).toBe('3');
    expect(existsSync(cache)).toBe(false);
  });
});
