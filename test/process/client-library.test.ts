// `import { createClient } from 'agentctl/client'` as a user's project does it: the packed package
// installed offline into a fresh project, imported from an ES module and required from CommonJS
// against the package's own emulator, and docs/library.md's examples type-checked by tsc --strict
// against the installed declarations (which must name nothing the package does not ship).
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

describe('the agentctl/client library in the packed package', () => {
  let project: string;

  beforeAll(async () => {
    const { tarball } = await packedPackage();
    project = tempDir('agentctl-client-project-');
    writeFileSync(join(project, 'package.json'), '{ "name": "user-project", "private": true, "type": "module" }\n');
    const install = await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: project, env: npmEnv, reject: false });
    expect(install.exitCode, install.stderr).toBe(0);
  }, 120_000);

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
    blocks.forEach((block, index) => writeFileSync(join(project, `example-${index + 1}.ts`), block));
    writeFileSync(join(project, 'wrong.ts'), "import { createClient } from 'agentctl/client';\nawait createClient({ baseUrl: 'http://127.0.0.1:8787/api/v1', apiKey: 'k' }).tasks.create({ prompt: 42 });\n");
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
          // package's declarations import nothing it does not ship is the next test's.
          skipLibCheck: true,
        },
        include: ['*.ts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const checked = await execa(process.execPath, [tsc, '-p', '.'], { cwd: project, reject: false });
    const errors = checked.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors, checked.stdout).toHaveLength(1);
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
