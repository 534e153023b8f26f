// docs/library.md's test example is test/client/library-example.test.ts, word for word but for the
// imports (the page imports the package, the test the sources): the page cannot drift from what runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The TypeScript blocks of a page, in order. */
function typescriptBlocks(page: string): string[] {
  return [...readFileSync(join(ROOT, page), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
}

it("docs/library.md's vitest example is the test that runs", () => {
  const documented = typescriptBlocks('docs/library.md').find((block) => block.includes('vitest'));
  const test = readFileSync(join(ROOT, 'test/client/library-example.test.ts'), 'utf8');
  const asTested = test
    .slice(test.indexOf("import { afterAll"))
    .replace("from '../../src/client/index.js'", "from 'agentctl/client'")
    .replace("from '../../src/emulator/index.js'", "from 'agentctl/emulator'");
  expect(documented).toBe(`// client.test.ts (vitest)\n${asTested}`);
});
