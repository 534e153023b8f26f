// The library's records (src/client/types.ts re-exports them) are declarations `npm run generate`
// writes from the response schemas (src/api/schemas/records.ts names them, declare.ts writes
// them): plain types, since its users' type checks must not need zod. Guarded twice: the file on disk
// is what the generator writes from the schemas now (a schema changed without `npm run generate`
// fails here), and each declaration is assignable both ways with z.output of its schema and names
// the same fields (the generator declaring a field wrong or leaving one out, or a record left out,
// fails `tsc --noEmit`: npm run lint).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { declarationModule, type DocSource } from '../../src/api/schemas/declare.js';
import { LIBRARY_RECORDS, recordsModule } from '../../src/api/schemas/records.js';
import type * as Library from '../../src/client/types.js';

/** true when A and B are assignable to each other (each field of one is a field of the other, of a type it takes). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The fields a type names, without its index signature. */
type Named<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/** Same, and naming the same fields: beside an index signature of unknown, an optional field left out is still "assignable". */
type InStep<A, B> = Same<A, B> extends true ? Same<Named<A>, Named<B>> : false;
type Out<K extends keyof typeof LIBRARY_RECORDS> = z.output<(typeof LIBRARY_RECORDS)[K]>;

// A declaration that drifts from its schema makes its line `false`, which this type refuses; a
// record named in records.ts without a line here is refused too.
const IN_STEP: Record<keyof typeof LIBRARY_RECORDS, true> = {
  TaskStatus: true as InStep<Library.TaskStatus, Out<'TaskStatus'>>,
  Task: true as InStep<Library.Task, Out<'Task'>>,
  TaskResult: true as InStep<Library.TaskResult, Out<'TaskResult'>>,
  CancelResponse: true as InStep<Library.CancelResponse, Out<'CancelResponse'>>,
  Secrets: true as InStep<Library.Secrets, Out<'Secrets'>>,
  LegacyAgent: true as InStep<Library.LegacyAgent, Out<'LegacyAgent'>>,
  PersistentAgent: true as InStep<Library.PersistentAgent, Out<'PersistentAgent'>>,
  ActivationResponse: true as InStep<Library.ActivationResponse, Out<'ActivationResponse'>>,
  ProcessingStatus: true as InStep<Library.ProcessingStatus, Out<'ProcessingStatus'>>,
  WebTask: true as InStep<Library.WebTask, Out<'WebTask'>>,
  TimelineEvent: true as InStep<Library.TimelineEvent, Out<'TimelineEvent'>>,
  Timeline: true as InStep<Library.Timeline, Out<'Timeline'>>,
  ServiceSchedulePreview: true as InStep<Library.ServiceSchedulePreview, Out<'ServiceSchedulePreview'>>,
};

const NO_DOCS: DocSource = { get: () => undefined };
const declare = (schema: z.ZodMiniType, docs: DocSource = NO_DOCS) => declarationModule({ R: schema }, docs, []).trim();

describe("the library's records, declared from the response schemas", () => {
  it('are what `npm run generate` writes from the schemas as they are now', () => {
    const written = readFileSync(new URL('../../src/client/records.generated.ts', import.meta.url), 'utf8');
    expect(written, 'run npm run generate').toBe(recordsModule());
  });

  it('declare every record records.ts names, each as its schema (type-checked by tsc)', () => {
    expect(Object.keys(IN_STEP).sort()).toEqual(Object.keys(LIBRARY_RECORDS).sort());
    expect(Object.values(IN_STEP).every((same) => same)).toBe(true);
  });

  it('keep the service\'s unknown fields where the schema does (loose), and say missing and null apart', () => {
    const schema = z.looseObject({
      a: z.string(),
      b: z.optional(z.nullable(z.union([z.string(), z.number()]))),
      c: z._default(z.nullable(z.string()), null),
      'd-e': z.array(z.object({ f: z.optional(z.enum(['x', 'y'])) })),
      g: z.record(z.string(), z.array(z.int())),
    });
    expect(declare(schema)).toBe(
      [
        'export interface R {',
        '  a: string;',
        '  b?: string | number | null;',
        '  c: string | null;',
        '  "d-e": Array<{',
        '    f?: "x" | "y";',
        '  }>;',
        '  g: Record<string, number[]>;',
        '  [field: string]: unknown;',
        '}',
      ].join('\n'),
    );
  });

  it("carry a record's and its fields' words as JSDoc, and name a record inside another", () => {
    const docs = z.registry<{ description: string }>();
    const item = z.looseObject({ kind: z.string() });
    docs.add(item, { description: 'One item.' });
    const list = z.object({ items: z.array(item), note: z.optional(z.string()) });
    docs.add(list.def.shape.note, { description: 'Two lines:\nthe second.' });
    expect(declarationModule({ Item: item, List: list }, docs, ['// head']).split('\n')).toEqual([
      '// head',
      '',
      '/** One item. */',
      'export interface Item {',
      '  kind: string;',
      '  [field: string]: unknown;',
      '}',
      '',
      'export interface List {',
      '  items: Item[];',
      '  /**',
      '   * Two lines:',
      '   * the second.',
      '   */',
      '  note?: string;',
      '}',
      '',
    ]);
  });

  it('refuse what they cannot declare, naming the field: a transform, one documented schema under two names', () => {
    expect(() => declare(z.object({ n: z.pipe(z.string(), z.transform((s) => s.length)) }))).toThrow(/^R\.n: .*"pipe"/);
    const docs = z.registry<{ description: string }>();
    const shared = z.optional(z.string());
    docs.add(shared, { description: 'Only for a.' });
    expect(() => declare(z.object({ a: shared, b: shared }), docs)).toThrow(/^R\.b: .*also used as "a"/);
  });
});
