import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';

// Start-up is a budget (README, "Performance"): what the answers that need no network read is
// checked here by file, since time itself is measured by `npm run bench`, never by a test.

/** The files a run of agentctl loaded as modules, and the builtins it compiled beyond bare node. */
function loadedBy(args: string[]): { dist: string[]; builtins: string[] } {
  const probe = join(tempDir('agentctl-probe-'), 'probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => require('node:fs').writeSync(3, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));",
  );
  const run = spawnSync(process.execPath, ['--require', probe, BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: tempDir('agentctl-home-') },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  expect(run.status, run.stderr).toBe(0);
  const { files, builtins } = JSON.parse(String(run.output[3])) as { files: string[]; builtins: string[] };
  return { dist: files.filter((file) => file.includes(`${sep}dist${sep}`)), builtins };
}

describe('start-up', () => {
  it.each([[['--version']], [['--help']], [['tasks', 'create', '--help']]])('%j reads one file of the bundle and starts no ES module loader', (args) => {
    const { dist, builtins } = loadedBy(args);
    expect(dist.map((file) => file.slice(file.lastIndexOf(`${sep}dist${sep}`) + 1))).toEqual([`dist${sep}cli${sep}main.js`]);
    expect(builtins.filter((name) => /esm\/(module_job|translators)/.test(name))).toEqual([]);
  });
});
