// `import { startEmulator } from 'agentctl/emulator'` as a user's test suite does it: the packed
// package, unpacked into a project's node_modules, imported from an ES module and required from
// CommonJS, and its type declarations checked by tsc against a typed use of the library.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { packedPackage } from '../helpers/pack.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the agentctl/emulator library in the packed package', () => {
  let project: string;

  beforeAll(async () => {
    // One pack per test run, shared with the other tests that install the package.
    const { tarball } = await packedPackage();
    project = tempDir('agentctl-lib-project-');
    const target = join(project, 'node_modules', 'agentctl');
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
    writeFileSync(join(project, 'package.json'), '{ "name": "user-project", "type": "module" }\n');
  }, 60_000);

  it('is imported from an ES module: a task created over HTTP ends when the test advances the clock', async () => {
    writeFileSync(
      join(project, 'use.mjs'),
      `import { startEmulator, ManualClock } from 'agentctl/emulator';
const emulator = await startEmulator({ port: 0, clock: new ManualClock(), seed: 42, taskDurationMs: 1000 });
const created = await fetch(emulator.baseUrl + '/tasks/browser-use/', { method: 'POST', headers: { 'x-api-key': 'emulator-key', 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'hello' }) });
const task = await created.json();
emulator.advance(1000);
const result = await (await fetch(emulator.baseUrl + '/tasks/browser-use/' + task.id + '/result/', { headers: { 'x-api-key': 'emulator-key' } })).json();
await emulator.close();
console.log(JSON.stringify({ id: task.id, status: result.status, requests: emulator.requests.length }));
`,
    );
    const first = JSON.parse((await execa(process.execPath, ['use.mjs'], { cwd: project })).stdout) as { id: string; status: string; requests: number };
    expect(first).toMatchObject({ status: 'completed', requests: 2 });
    // The same seed gives the same ids.
    const second = JSON.parse((await execa(process.execPath, ['use.mjs'], { cwd: project })).stdout) as { id: string };
    expect(second.id).toBe(first.id);
  });

  it('is required from CommonJS', async () => {
    writeFileSync(join(project, 'use.cjs'), "const { startEmulator, parseFaults } = require('agentctl/emulator'); console.log(typeof startEmulator, parseFaults('503@10%').length);\n");
    expect((await execa(process.execPath, ['use.cjs'], { cwd: project })).stdout).toBe('function 1');
  });

  it('ships type declarations that check a typed use (and refuse a wrong one)', async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const options = ['--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types'), '--skipLibCheck'];
    writeFileSync(
      join(project, 'typed.mts'),
      `import { startEmulator, ManualClock, type RunningEmulator } from 'agentctl/emulator';
const emulator: RunningEmulator = await startEmulator({ port: 0, clock: new ManualClock(), faults: '503@10%' });
emulator.faults.set('latency=10ms');
const status: number | undefined = emulator.requests[0]?.status;
await emulator.close();
export { status };
`,
    );
    writeFileSync(join(project, 'wrong.mts'), "import { startEmulator } from 'agentctl/emulator';\nawait startEmulator({ port: 'zero' });\n");
    // One tsc run for both files: the only error is the wrong one's.
    const checked = await execa(process.execPath, [tsc, ...options, 'typed.mts', 'wrong.mts'], { cwd: project, reject: false });
    const errors = checked.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^wrong\.mts\(2,.*Type 'string' is not assignable to type 'number'/);
  }, 60_000);
});
