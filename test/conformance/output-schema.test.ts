import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script, plain JavaScript
import { metaSchemaModule } from '../../scripts/generate-meta-schema.mjs';
import { outputSchemaProblem } from '../../src/contract/output-schema.js';
import { useEmulator } from '../emulator/harness.js';

// output_schema as the service judges it (gobii-platform c9929bf, api/serializers.py,
// BrowserUseAgentTaskSerializer.validate_output_schema; jsonschema 4.25.1): the verdicts in
// data/output-schema-verdicts.json came from running the service's check, with the real
// Draft202012Validator.check_schema, over a table of schemas (data/README.md says how).

interface Row { schema: unknown; valid: boolean; message?: string }
const { rows } = JSON.parse(readFileSync(new URL('data/output-schema-verdicts.json', import.meta.url), 'utf8')) as { rows: Row[] };
const h = useEmulator();

describe('output_schema (api/serializers.py BrowserUseAgentTaskSerializer.validate_output_schema)', () => {
  // The emulator and `tasks create --output-schema` share one check (src/contract/output-schema.ts):
  // the whole table against it, a few rows through the emulator's route.
  it('takes and refuses what Draft202012Validator.check_schema, _max_depth and _count_props take and refuse', () => {
    const verdict = (row: Row) => ({ schema: JSON.stringify(row.schema).slice(0, 120), valid: row.valid, message: row.message?.startsWith('Schema too') ? row.message : undefined });
    const ours = rows.map((row) => {
      const message = outputSchemaProblem(row.schema);
      return verdict({ schema: row.schema, valid: message === undefined, message });
    });
    expect(ours).toEqual(rows.map(verdict));
  });

  it('answers 400 with the service\'s words: its two limits exactly, every other refusal "Invalid JSON Schema: ..."', async () => {
    for (const schema of [{ properties: 5 }, { required: 'x' }, { type: 'strin' }, { pattern: '(?P<year>\\d{4})\\Z' }, { pattern: '\\p{L}' }]) {
      const answer = await h.raw('POST', '/tasks/browser-use/', { prompt: 'x', output_schema: schema });
      expect(answer.status, JSON.stringify(schema)).toBe(String((schema as { pattern?: string }).pattern).startsWith('(') ? 201 : 400);
      if (answer.status === 400) expect((answer.body as { output_schema: string[] }).output_schema[0]).toMatch(/^Invalid JSON Schema: /);
    }
    const tooMany = { properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, {}])) };
    expect(await h.raw('POST', '/tasks/browser-use/', { prompt: 'x', output_schema: tooMany })).toMatchObject({
      status: 400, body: { output_schema: ['Schema too complex - maximum property count is 2000'] },
    });
  });

  it('counts depth as _max_depth does: 40 levels of lists pass, 41 fail; an empty object is a level', async () => {
    let list: unknown = 1;
    for (let i = 0; i < 39; i++) list = [list];
    expect((await h.raw('POST', '/tasks/browser-use/', { prompt: 'x', output_schema: { default: list } })).status).toBe(201);
    expect(await h.raw('POST', '/tasks/browser-use/', { prompt: 'x', output_schema: { default: [list] } })).toMatchObject({
      status: 400, body: { output_schema: ['Schema too deep - maximum nesting level is 40'] },
    });
  });
});

describe('the compiled meta-schema', () => {
  it('is what `npm run generate` writes from the Ajv installed now', () => {
    const written = (ext: string) => readFileSync(new URL(`../../src/contract/meta-schema.generated.${ext}`, import.meta.url), 'utf8');
    const { code, declarations } = metaSchemaModule() as { code: string; declarations: string };
    expect(written('js'), 'run npm run generate').toBe(code);
    expect(written('d.ts'), 'run npm run generate').toBe(declarations);
  });
});
