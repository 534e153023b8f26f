// The single executable (`npm run sea`) on a machine without Node: built once here from the dist/ of
// the global setup (~100 MB: a copy of the node executable with agentctl injected; ~5 s of CPU,
// most of it postject's), then run with a PATH that has no `node` on it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, tempDir } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('the single executable', () => {
  let folder: string;
  let binary: string;
  let emulator: ChildProcess | undefined;
  // No node anywhere on PATH: only the folder that holds the binary.
  let env: Record<string, string>;

  beforeAll(async () => {
    folder = tempDir('agentctl-sea-');
    binary = join(folder, 'bin', 'agentctl');
    await execa(process.execPath, ['scripts/build-sea.mjs', '--out', binary], { cwd: ROOT, timeout: 120_000 });
    env = { PATH: join(folder, 'bin'), HOME: folder, XDG_CONFIG_HOME: join(folder, 'config'), XDG_CACHE_HOME: join(folder, 'cache') };
  }, 150_000);

  // The folder (~100 MB) goes with the file's other temporary folders (test/setup.ts).
  afterAll(async () => {
    if (emulator) await killAndWait(emulator);
  });

  it('has no node to lean on, and answers --version and piped help from its own assets', async () => {
    expect((await execa('sh', ['-c', 'command -v node'], { env, extendEnv: false, reject: false })).exitCode).not.toBe(0);
    expect((await execa(binary, ['--version'], { env, extendEnv: false })).stdout).toBe(version);
    expect((await execa(binary, ['version'], { env, extendEnv: false })).stdout).toMatch(new RegExp(`^agentctl version ${version} \\(node/[\\d.]+, single executable\\)$`));
    const help = await execa(binary, ['tasks', 'create', '--help'], { env, extendEnv: false });
    expect(`${help.stdout}\n`).toBe(readFileSync(join(ROOT, 'dist', 'help', 'agentctl_tasks_create.txt'), 'utf8'));
  });

  it('runs the emulator and follows a task created through it to the end', async () => {
    emulator = spawn(binary, ['emulator', '--port', '0', '--task-duration', '200'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      createInterface({ input: emulator!.stdout! }).once('line', resolve);
      emulator!.once('exit', (code) => reject(new Error(`the emulator of the single executable exited with ${code}`)));
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const serviceEnv = { ...env, AGENTCTL_BASE_URL: baseUrl, AGENTCTL_API_KEY: 'emulator-key' };
    const task = await execa(binary, ['tasks', 'create', 'Find the cheapest flight to Oslo', '--follow'], { env: serviceEnv, extendEnv: false, reject: false, timeout: 150_000 });
    expect(task.exitCode, task.stderr).toBe(0);
    expect(task.stdout).toContain('Find the cheapest flight to Oslo');
    // --jq runs jq compiled to WebAssembly, bundled too.
    const status = await execa(binary, ['tasks', 'list', '--jq', '.[0].status'], { env: serviceEnv, extendEnv: false });
    expect(status.stdout).toBe('completed');
    // --jsonl --jq runs jq once over the stream on a worker thread, which loads jq's loader from an asset.
    const counted = await execa(binary, ['tasks', 'list', '--jsonl', '--jq', '[., inputs] | length'], { env: serviceEnv, extendEnv: false, reject: false });
    expect(counted.stdout, counted.stderr).toBe('1');
    // The program's compiled code is kept for the next runs, in a private folder named after this build and Node.
    const cacheRoot = join(folder, 'cache', 'agentctl', 'v8-code-sea');
    const builds = readdirSync(cacheRoot);
    expect(builds).toEqual([expect.stringMatching(new RegExp(`^[0-9a-f]{16}-node${process.version}-${process.arch}$`))]);
    expect(statSync(join(cacheRoot, builds[0]!)).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(cacheRoot, builds[0]!))).toEqual(['run.js']);
  });
});
