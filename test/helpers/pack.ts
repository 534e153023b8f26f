// The package as `npm pack` makes it, packed once per test run and shared by the tests that install
// it (packing takes seconds): the first to ask packs into a folder of its own and renames it into
// place, so a test never sees half a tarball; two that ask at once both pack, and one rename wins.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { inject } from 'vitest';
import { tempDir } from './cli.js';
import { sharedRunFolder } from './temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

export interface Packed {
  /** The .tgz file. */
  tarball: string;
  /** The paths it holds, as npm lists them (package.json, bin/agentctl.js, ...). */
  files: string[];
}

let packing: Promise<Packed> | undefined;

/** This run's packed package (dist/ was built by the global setup). */
export function packedPackage(): Promise<Packed> {
  packing ??= pack();
  return packing;
}

async function pack(): Promise<Packed> {
  const shared = sharedRunFolder('pack', inject('runId'));
  const read = (): Packed => JSON.parse(readFileSync(join(shared, 'packed.json'), 'utf8')) as Packed;
  if (existsSync(join(shared, 'packed.json'))) return read();
  const own = tempDir('agentctl-pack-');
  // --ignore-scripts keeps prepack from rebuilding dist/ under the other end-to-end tests' feet.
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', own], { cwd: ROOT, env: npmEnv });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  writeFileSync(join(own, 'packed.json'), JSON.stringify({ tarball: join(shared, info!.filename), files: info!.files.map((file) => file.path) }));
  try {
    renameSync(own, shared);
  } catch {
    rmSync(own, { recursive: true, force: true }); // another test packed it first
  }
  return read();
}
