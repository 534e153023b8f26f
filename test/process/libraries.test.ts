// The package's two libraries as a user's project uses them: the packed package installed offline
// with npm into one fresh project, `agentctl/client` and `agentctl/emulator` imported from an ES
// module and required from CommonJS, and their declarations checked by tsc --strict against
// docs/library.md's examples and a typed use of the emulator (one tsc run checks both: each run
// spent ~3 s of CPU reading Node's declarations).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { npmEnv, packedPackage } from '../helpers/pack.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The TypeScript blocks of docs/library.md, in order. */
const blocks = [...readFileSync(join(ROOT, 'docs/library.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => match[1]!);

let project: string;

beforeAll(async () => {
  const { tarball } = await packedPackage();
  project = tempDir('agentctl-lib-project-');
  writeFileSync(join(project, 'package.json'), '{ "name": "user-project", "private": true, "type": "module" }\n');
  const install = await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: project, env: npmEnv, reject: false });
  expect(install.exitCode, install.stderr).toBe(0);
}, 120_000);

// Files each test adds for tsc, by test: written before the one run that checks them all.
const CLIENT_FILES = () => [...blocks.map((block, index) => [`example-${index + 1}.ts`, block]), ['wrong.ts', "import { createClient } from 'agentctl/client';\nawait createClient({ baseUrl: 'http://127.0.0.1:8787/api/v1', apiKey: 'k' }).tasks.create({ prompt: 42 });\n"]];
const EMULATOR_FILES = () => [
  [
    'typed.mts',
    `import { startEmulator, ManualClock, type RunningEmulator } from 'agentctl/emulator';
const emulator: RunningEmulator = await startEmulator({ port: 0, clock: new ManualClock(), faults: '503@10%' });
emulator.faults.set('latency=10ms');
const status: number | undefined = emulator.requests[0]?.status;
await emulator.close();
export { status };
`,
  ],
  ['wrong.mts', "import { startEmulator } from 'agentctl/emulator';\nawait startEmulator({ port: 'zero' });\n"],
];

let checking: Promise<string[]> | undefined;
/** tsc --strict over both libraries' examples, once: the `error TS` lines it printed. */
function typeCheck(): Promise<string[]> {
  checking ??= (async () => {
    for (const [file, text] of [...CLIENT_FILES(), ...EMULATOR_FILES()]) writeFileSync(join(project, file!), text!);
    // The project's own tsconfig: strict, Node's module rules; vitest's and Node's types come from
    // this repository (the project installs only agentctl, offline).
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          paths: { vitest: [join(ROOT, 'node_modules', 'vitest', 'dist', 'index.d.ts')] },
          // Checking @types/node and vitest's own declarations would triple the time; that the
          // package's declarations import nothing it does not ship is a test below.
          skipLibCheck: true,
        },
        include: ['*.ts', '*.mts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const checked = await execa(process.execPath, [tsc, '-p', '.'], { cwd: project, reject: false });
    return checked.stdout.split('\n').filter((line) => line.includes('error TS'));
  })();
  return checking;
}
/** The errors tsc found in these files. */
const errorsIn = (errors: string[], files: string[][]) => errors.filter((line) => files.some(([file]) => line.startsWith(`${file}(`)));

describe('the agentctl/client library in the packed package', () => {
  it('installs with nothing beside it: no runtime dependency', () => {
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['agentctl']);
  });

  it('is imported from an ES module and required from CommonJS, and follows a task of the emulator to its end', async () => {
    const script = (imports: string) => `${imports}
(async () => {
  const emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
  const client = createClient({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key' });
  const task = await client.tasks.create({ prompt: 'Find the weather in Oslo' });
  const done = await client.tasks.wait(task.id, { timeoutMs: 60000 });
  const refused = await client.tasks.get('not-an-id').catch((error) => error);
  await emulator.close();
  console.log(JSON.stringify({ status: done.status, refused: [refused instanceof InputError, refused.field] }));
})();
`;
    writeFileSync(join(project, 'use.mjs'), script("import { createClient, InputError } from 'agentctl/client';\nimport { startEmulator } from 'agentctl/emulator';"));
    writeFileSync(join(project, 'use.cjs'), script("const { createClient, InputError } = require('agentctl/client');\nconst { startEmulator } = require('agentctl/emulator');"));
    for (const file of ['use.mjs', 'use.cjs']) {
      const run = await execa(process.execPath, [file], { cwd: project, reject: false, timeout: 60_000 });
      expect(run.exitCode, `${file}: ${run.stderr}`).toBe(0);
      expect(JSON.parse(run.stdout), file).toEqual({ status: 'completed', refused: [true, 'id'] });
    }
  }, 90_000);

  it("type-checks docs/library.md's examples with tsc --strict, and refuses a wrong use", async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const errors = errorsIn(await typeCheck(), CLIENT_FILES());
    expect(errors, errors.join('\n')).toHaveLength(1);
    expect(errors[0]).toMatch(/^wrong\.ts\(2,.*Type 'number' is not assignable to type 'string'/);
  }, 90_000);

  it('ships declarations that import nothing but each other and node: (no zod, no undici)', () => {
    const seen = new Set<string>();
    const outside: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (specifier!.startsWith('.')) visit(join(dirname(file), specifier!.replace(/\.js$/, '.d.ts')));
        else if (!specifier!.startsWith('node:')) outside.push(`${file}: ${specifier}`);
      }
    };
    visit(join(project, 'node_modules', 'agentctl', 'dist', 'client', 'index.d.ts'));
    expect(outside).toEqual([]);
    expect(seen.size).toBeGreaterThan(3);
  });

  it('stays out of the command line: no chunk of the CLI holds the library', () => {
    const cli = ['cli/main.js', ...readdirSync(join(ROOT, 'dist', 'chunks')).map((file) => `chunks/${file}`)];
    for (const file of cli) expect(readFileSync(join(ROOT, 'dist', file), 'utf8'), file).not.toContain('agentctl-client/');
    expect(existsSync(join(ROOT, 'dist', 'client', 'index.d.ts'))).toBe(true);
  });
});

describe('the agentctl/emulator library in the packed package', () => {
  it('is imported from an ES module: a task created over HTTP ends when the test advances the clock', async () => {
    writeFileSync(
      join(project, 'emulator.mjs'),
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
    const first = JSON.parse((await execa(process.execPath, ['emulator.mjs'], { cwd: project })).stdout) as { id: string; status: string; requests: number };
    expect(first).toMatchObject({ status: 'completed', requests: 2 });
    // The same seed gives the same ids.
    const second = JSON.parse((await execa(process.execPath, ['emulator.mjs'], { cwd: project })).stdout) as { id: string };
    expect(second.id).toBe(first.id);
  });

  it('is required from CommonJS', async () => {
    writeFileSync(join(project, 'emulator.cjs'), "const { startEmulator, parseFaults } = require('agentctl/emulator'); console.log(typeof startEmulator, parseFaults('503@10%').length);\n");
    expect((await execa(process.execPath, ['emulator.cjs'], { cwd: project })).stdout).toBe('function 1');
  });

  it('ships type declarations that check a typed use (and refuse a wrong one)', async () => {
    const errors = errorsIn(await typeCheck(), EMULATOR_FILES());
    expect(errors, errors.join('\n')).toHaveLength(1);
    expect(errors[0]).toMatch(/^wrong\.mts\(2,.*Type 'string' is not assignable to type 'number'/);
  }, 60_000);
});
