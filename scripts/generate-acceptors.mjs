// `npm run generate`: writes src/api/schemas/acceptors.generated.js (and its .d.ts), the predicates that check the
// service's responses without loading zod, from the response schemas (src/api/schemas/responses.ts,
// compiled by src/api/schemas/accept.ts). Run it after changing a response schema: a unit test
// fails while the file is out of date.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const target = new URL('../src/api/schemas/acceptors.generated.js', import.meta.url);
const types = new URL('../src/api/schemas/acceptors.generated.d.ts', import.meta.url);
const bundle = join(tmpdir(), `agentctl-acceptors-${process.pid}.mjs`);
await build({
  stdin: {
    contents: "export { RESPONSE_SCHEMAS } from './src/api/schemas/responses.ts'; export { acceptorModule } from './src/api/schemas/accept.ts';",
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  outfile: bundle,
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
try {
  const { RESPONSE_SCHEMAS, acceptorModule } = await import(pathToFileURL(bundle).href);
  const { code, declarations } = acceptorModule(RESPONSE_SCHEMAS);
  await writeFile(target, code);
  await writeFile(types, declarations);
  console.log(`wrote ${target.pathname} and its .d.ts`);
} finally {
  await rm(bundle, { force: true });
}
