// The fast response check must accept exactly what zod accepts: a body it lets through that zod
// would refuse is a check dropped, one it refuses that zod accepts is a false error. Bodies are
// generated from each schema's definition, near-valid: every field right, missing, wrong or extra.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { readFileSync } from 'node:fs';
import { acceptorModule, predicateSource } from '../../src/api/schemas/accept.js';
import { ACCEPTORS } from '../../src/api/schemas/acceptors.generated.js';
import { RESPONSE_SCHEMAS } from '../../src/api/schemas/responses.js';

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  entries?: Record<string, unknown>;
  format?: string;
}
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Any JSON value, or the awkward ones JSON cannot carry but a caller might. */
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, Number.NaN, Infinity, -0, 1.5, -1, 2 ** 53, '', 'pending', [], {}),
);

/** A value for the schema: mostly valid, sometimes junk in its place. */
function near(schema: z.ZodMiniType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const valid = ((): fc.Arbitrary<unknown> => {
    switch (def.type) {
      case 'string':
        return fc.string({ maxLength: 5 });
      case 'boolean':
        return fc.boolean();
      case 'number':
        return def.format === 'safeint' ? fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 53 - 1, 2 ** 53)) : fc.double();
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries ?? {}));
      case 'optional':
      case 'default':
        return fc.oneof(fc.constant(undefined), near(def.innerType!, depth));
      case 'nullable':
        return fc.oneof(fc.constant(null), near(def.innerType!, depth));
      case 'union':
        return fc.oneof(...def.options!.map((option) => near(option, depth)));
      case 'array':
        return fc.array(near(def.element!, depth + 1), { maxLength: depth > 1 ? 1 : 3 });
      case 'object': {
        // Each key present with a near value, or left out; plus, sometimes, a key the schema does not name.
        const fields = Object.entries(def.shape ?? {}).map(([key, field]) =>
          fc.option(near(field, depth + 1), { nil: undefined, freq: 6 }).map((value) => [key, value] as const),
        );
        // Sometimes a key left out is there with the value undefined (not from JSON, but zod tells them apart).
        return fc.tuple(fc.tuple(...fields), fc.option(junk, { freq: 3 }), fc.boolean()).map(([entries, extra, keepUndefined]) => {
          const record: Record<string, unknown> = {};
          for (const [key, value] of entries) if (value !== undefined || keepUndefined) record[key] = value;
          if (extra !== null) record.added_by_a_later_version = extra;
          return record;
        });
      }
      default:
        return junk;
    }
  })();
  return fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: junk, weight: 1 });
}

/** A schema's predicate, compiled here as the generated module's are written. */
function acceptorOf(schema: z.ZodMiniType): ((value: unknown) => boolean) | undefined {
  const source = predicateSource(schema);
  return source && (new Function(`${source.declarations.join('\n')}\nreturn (value) => ${source.expression};`)() as (value: unknown) => boolean);
}

describe('the fast response check', () => {
  it.each(Object.entries(RESPONSE_SCHEMAS))('agrees with zod on every %s body', (name, schema: z.ZodMiniType) => {
    const accept = ACCEPTORS[name as keyof typeof ACCEPTORS];
    expect(accept, 'every response schema of the client has a fast check').not.toBeNull();
    fc.assert(
      fc.property(near(schema), (body) => {
        expect(accept!(body)).toBe(schema.safeParse(body).success);
      }),
      { numRuns: 400 },
    );
  });

  it('is generated from the response schemas as they are now (else: npm run generate)', () => {
    const written = (ext: string) => readFileSync(new URL(`../../src/api/schemas/acceptors.generated.${ext}`, import.meta.url), 'utf8');
    const { code, declarations } = acceptorModule(RESPONSE_SCHEMAS);
    expect(written('js')).toBe(code);
    expect(written('d.ts')).toBe(declarations);
  });

  it('agrees with zod on the edges of a count (z.int, nonnegative) and of a required key', () => {
    const schema = z.looseObject({ count: z.int().check(z.nonnegative()), anything: z.unknown() });
    const accept = acceptorOf(schema)!;
    for (const count of [0, 1, -1, 1.5, 2 ** 53 - 1, 2 ** 53, Number.NaN, Infinity, -0, '1', null]) {
      for (const body of [{ count, anything: 1 }, { count }]) expect(accept(body), JSON.stringify(body)).toBe(schema.safeParse(body).success);
    }
    expect(accept([])).toBe(false);
    expect(accept(null)).toBe(false);
  });

  it('leaves to zod what it does not know: refinements, transforms, strict objects, string formats, xor, exact optionals, a NaN enum value, recursion', () => {
    expect(acceptorOf(z.string().check(z.minLength(1)))).toBeUndefined();
    expect(acceptorOf(z.strictObject({ a: z.string() }))).toBeUndefined();
    expect(acceptorOf(z.pipe(z.string(), z.transform((s) => s.length)))).toBeUndefined();
    expect(acceptorOf(z.looseObject({ when: z.iso.datetime() }))).toBeUndefined();
    expect(acceptorOf(z.xor([z.string(), z.union([z.string(), z.number()])]))).toBeUndefined();
    expect(acceptorOf(z.object({ a: z.exactOptional(z.string()) }))).toBeUndefined();
    expect(acceptorOf(z.enum({ A: Number.NaN } as unknown as Record<string, number>))).toBeUndefined();
    const Node = z.object({
      name: z.string(),
      get children() {
        return z.optional(z.array(Node));
      },
    });
    expect(acceptorOf(Node)).toBeUndefined();
  });

  it('writes a schema used twice once, and leaves nothing behind of a schema it cannot write', () => {
    const item = z.looseObject({ id: z.string() });
    const { code } = acceptorModule({
      item,
      page: z.looseObject({ results: z.array(item) }),
      refused: z.looseObject({ inner: z.looseObject({ a: z.string() }), name: z.string().check(z.minLength(1)) }),
    });
    // Three functions: the item's, and the page's and its array's (which calls the item's); none of `refused`.
    expect(code.match(/^function /gm)).toHaveLength(3);
    expect(code).toContain('"refused": null');
    const { ACCEPTORS: written } = new Function(`${code.replace('export const ACCEPTORS', 'const ACCEPTORS')}\nreturn { ACCEPTORS };`)() as {
      ACCEPTORS: Record<string, ((value: unknown) => boolean) | null>;
    };
    expect(written.page!({ results: [{ id: 'a' }] })).toBe(true);
    expect(written.page!({ results: [{ id: 1 }] })).toBe(false);
  });

  it('agrees with zod on an enum of a numeric TypeScript enum (its reverse names are not values)', () => {
    const schema = z.enum({ A: 0, 0: 'A' } as unknown as Record<string, number>);
    const accept = acceptorOf(schema)!;
    for (const value of [0, 'A', '0', 1]) expect(accept(value), String(value)).toBe(schema.safeParse(value).success);
  });
});
