// scripts/check-structure.mjs (run by `npm run lint`) finds each kind of problem it promises to, on a
// small tree of its own: a cycle, a command folder importing another, a long command file, a long function,
// a flag named below the faces, a wait loop of its own, a request body built outside src/core, a
// terminal fact read outside src/output/terminal.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'check-structure.mjs');

function tree(files: Record<string, string>): string {
  const root = tempDir('agentctl-structure-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const lines = (count: number, line: string) => Array.from({ length: count }, () => line).join('\n');

it('passes a tree in shape, and names every problem of one that is not', async () => {
  const good = tree({
    'src/commands/tasks/get.ts': "import { shared } from '../common/list.js';\nexport const get = () => shared;\n",
    'src/commands/common/list.ts': 'export const shared = 1;\n',
  });
  expect((await execa(process.execPath, [SCRIPT, good])).stdout).toMatch(/^structure: 2 source files/);

  const bad = tree({
    'src/core/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
    'src/core/b.ts': "export const b = () => import('./a.js');\nexport type B = number;\n",
    'src/commands/tasks/get.ts': `import { other } from '../agents/get.js';\nexport const get = other;\n${lines(250, '// filler')}\n`,
    'src/commands/agents/get.ts': `export function other(): void {\n${lines(100, '  void 0;')}\n}\n`,
    'src/api/hints.ts': "export const timeout = 'raise the limit with --timeout SEC';\nexport const auth = `check the key: \\`agentctl auth status\\``;\n",
    'src/mcp/wait.ts': "export const wait = (poll: () => unknown) => waitForTask({}, { fetchTask: poll });\n",
    'src/client/tasks.ts': "export function body(prompt: string) {\n  const body: TaskBody = { prompt };\n  return body;\n}\nexport const agent = (name: string) => ({ name }) as PersistentAgentBody;\n",
    'src/cli/help.ts': "export const colour = (env: Record<string, string>, tty: boolean) => tty && env.NO_COLOR === undefined && env['TERM'] !== 'dumb';\n",
    'src/output/terminal.ts': "export const dumb = (env: Record<string, string>) => env.TERM === 'dumb' || process.stdout.isTTY;\n",
    'src/core/task-body.ts': "export const taskBody = (prompt: string): TaskBody => { const body: TaskBody = { prompt }; return body; };\n",
  });
  const result = await execa(process.execPath, [SCRIPT, bad], { reject: false });
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toContain('import cycle: src/core/a.ts -> src/core/b.ts -> src/core/a.ts');
  expect(result.stderr).toContain('src/commands/tasks/get.ts imports src/commands/agents/get.ts: a command folder imports another');
  expect(result.stderr).toContain('src/commands/tasks/get.ts has 252 lines, over 250');
  expect(result.stderr).toContain('src/commands/agents/get.ts:1 other has 102 lines, over 100');
  expect(result.stderr).toContain('src/api/hints.ts:1 names --timeout: below the faces no string names a flag or an agentctl command');
  expect(result.stderr).toContain('src/api/hints.ts:2 names `agentctl auth');
  expect(result.stderr).toContain('src/mcp/wait.ts:1 waits for a task itself: the one wait loop is src/core/wait.ts');
  expect(result.stderr).toContain('src/client/tasks.ts:2 builds a TaskBody itself: only src/core builds request bodies');
  expect(result.stderr).toContain('src/client/tasks.ts:5 builds a PersistentAgentBody itself');
  expect(result.stderr).not.toContain('src/core/task-body.ts');
  expect(result.stderr).toContain('src/cli/help.ts:1 reads NO_COLOR: terminal decisions have one owner, src/output/terminal.ts');
  expect(result.stderr).toContain('src/cli/help.ts:1 reads TERM');
  expect(result.stderr).not.toContain('src/output/terminal.ts:1');
});
