// `npm run generate` (first step): writes what is made from the response schemas (src/api/schemas):
// - src/api/schemas/acceptors.generated.js (and its .d.ts), the predicates that check the service's
//   responses without loading zod (responses.ts names the schemas, accept.ts compiles them);
// - src/client/records.generated.ts, the declarations of the library's records (records.ts names
//   them, declare.ts writes them), which src/client/types.ts re-exports.
// Run it after changing a response schema: a unit test fails while either file is out of date.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const target = new URL('../src/api/schemas/acceptors.generated.js', import.meta.url);
const types = new URL('../src/api/schemas/acceptors.generated.d.ts', import.meta.url);
const records = new URL('../src/client/records.generated.ts', import.meta.url);
const bundle = join(tmpdir(), `agentctl-acceptors-${process.pid}.mjs`);
await build({
  stdin: {
    contents: [
      "export { RESPONSE_SCHEMAS } from './src/api/schemas/responses.ts';",
      "export { acceptorModule } from './src/api/schemas/accept.ts';",
      "export { recordsModule } from './src/api/schemas/records.ts';",
    ].join('\n'),
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
  const { RESPONSE_SCHEMAS, acceptorModule, recordsModule } = await import(pathToFileURL(bundle).href);
  const { code, declarations } = acceptorModule(RESPONSE_SCHEMAS);
  await writeFile(target, code);
  await writeFile(types, declarations);
  await writeFile(records, recordsModule());
  console.log(`wrote ${target.pathname} and its .d.ts, and ${records.pathname}`);
} finally {
  await rm(bundle, { force: true });
}
