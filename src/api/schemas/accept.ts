// A fast yes/no for a response body against its zod schema. zod builds a new object and a result
// record for every field it checks: for `tasks list --all` over 10,000 tasks that was 15-30 ms of
// checking and as much again of garbage collection, its largest cost. The client keeps the body
// exactly as the service sent it and uses zod's output only for its error messages, so a predicate
// that accepts exactly what zod accepts does the same job without allocating anything.
//
// This module writes that predicate's JavaScript from the schema's own definition, so zod stays the
// one description of a response (declare.ts writes the library's declarations from it too).
// `npm run generate` writes the predicates of every response schema (responses.ts) into
// acceptors.generated.js, so a command checks its responses without loading zod at all (about
// 2.5 ms of every API command's start-up); zod loads only to word the error when a predicate says
// no. Each predicate is one function per object and array, as zod compiles its own
// object parser: for those 10,000 tasks it takes 0.2-1.5 ms.
// It knows only the constructs our schemas use; for anything else (a refinement, a transform, a
// string format, a strict object...) `predicateSource` gives undefined and zod decides.
// test/property/accept.property.test.ts checks on generated bodies that both always agree.
import type { ZodMiniType } from 'zod/mini';
import { internalsOf, type Definition } from './definition.js';

/** A predicate as JavaScript: `declarations` (functions and sets) and an `expression` of the variable `value`. */
export interface PredicateSource {
  declarations: string[];
  expression: string;
}

/**
 * What the predicates of one module share: their declarations, a counter for unique names, and the
 * name each object, array and enum schema was written under (a page's items are the item's own function).
 */
interface Shared {
  code: string[];
  count: number;
  written: Map<ZodMiniType, string>;
}

/**
 * Writes the predicate of `schema`: one function per object and array, expressions for the rest;
 * undefined when the schema uses something this module does not know. With `shared`, it reuses and
 * adds to the declarations of other predicates of the same module.
 */
export function predicateSource(schema: ZodMiniType, shared: Shared = { code: [], count: 0, written: new Map() }): PredicateSource | undefined {
  const mark = shared.code.length;
  const writer = new PredicateWriter(shared);
  const expression = writer.test(schema, 'value');
  if (expression === undefined) {
    // Nothing of a predicate that cannot be written stays behind for the next one.
    shared.code.length = mark;
    for (const written of writer.added) shared.written.delete(written);
    return undefined;
  }
  return { declarations: shared.code.slice(mark), expression };
}

/**
 * Writes one predicate into a module's shared declarations: `test` gives the expression of a schema,
 * one method per kind of schema. Every method gives undefined for what it does not know.
 */
class PredicateWriter {
  /** The object, array and enum schemas this predicate declared (forgotten again if it cannot be written). */
  readonly added: ZodMiniType[] = [];
  /** A schema that contains itself (a getter-defined tree) is left to zod: its source would never end. */
  private readonly building = new Set<ZodMiniType>();

  constructor(private readonly shared: Shared) {}

  private fresh(kind = 'v'): string {
    return `${kind}${this.shared.count++}`;
  }

  /** The name `schema` was written under, or that name after `write` has written it. */
  private declared(schema: ZodMiniType, write: (name: string) => string | undefined): string | undefined {
    const known = this.shared.written.get(schema);
    if (known !== undefined) return known;
    const name = write(this.fresh(internalsOf(schema).def.type === 'enum' ? 's' : 'f'));
    if (name !== undefined) {
      this.shared.written.set(schema, name);
      this.added.push(schema);
    }
    return name;
  }

  /** An expression that is true when the variable `v` holds a value the schema accepts; undefined when unknown. */
  test(schema: ZodMiniType, v: string): string | undefined {
    if (this.building.has(schema)) return undefined;
    this.building.add(schema);
    try {
      return this.testOf(schema, v);
    } finally {
      this.building.delete(schema);
    }
  }

  private testOf(schema: ZodMiniType, v: string): string | undefined {
    const { def, traits, values } = internalsOf(schema);
    if (def.coerce) return undefined;
    // A schema that is itself a check (z.iso.datetime(), z.int()...): of those, only z.int() is known.
    const safeInt = def.type === 'number' && def.check === 'number_format' && def.format === 'safeint';
    if ((def.check !== undefined || def.format !== undefined) && !safeInt) return undefined;
    const plain = (def.checks ?? []).length === 0;
    switch (def.type) {
      case 'unknown':
      case 'any':
        return 'true';
      case 'string':
      case 'boolean':
        return plain ? `typeof ${v} === "${def.type}"` : undefined;
      case 'number':
        return this.number(def, safeInt, v);
      case 'enum':
        return plain && values ? this.enum(schema, values, v) : undefined;
      case 'nullable':
      case 'optional':
      case 'default': {
        if (traits.has('$ZodExactOptional')) return undefined;
        const inner = plain && def.innerType ? this.test(def.innerType, v) : undefined;
        if (inner === undefined) return undefined;
        return `(${v} === ${def.type === 'nullable' ? 'null' : 'undefined'} || ${inner})`;
      }
      case 'union': {
        if (def.inclusive === false) return undefined;
        const options = (def.options ?? []).map((option) => this.test(option, v));
        if (!plain || options.length === 0 || options.some((option) => option === undefined)) return undefined;
        return `(${options.join(' || ')})`;
      }
      case 'array':
        return plain && def.element ? this.array(schema, def.element, v) : undefined;
      case 'object':
        return plain ? this.object(schema, def, v) : undefined;
      default:
        return undefined;
    }
  }

  private number(def: Definition, safeInt: boolean, v: string): string | undefined {
    // Bounds (z.nonnegative()) come as checks.
    const parts = [`typeof ${v} === "number"`, safeInt ? `Number.isSafeInteger(${v})` : `Number.isFinite(${v})`];
    for (const check of def.checks ?? []) {
      const c = check._zod.def;
      if (c.check !== 'greater_than' || typeof c.value !== 'number') return undefined;
      parts.push(`${v} ${c.inclusive ? '>=' : '>'} ${c.value}`);
    }
    return `(${parts.join(' && ')})`;
  }

  private enum(schema: ZodMiniType, values: Set<unknown>, v: string): string | undefined {
    if (![...values].every(writable)) return undefined;
    const set = this.declared(schema, (name) => {
      this.shared.code.push(`const ${name} = new Set([${[...values].map((value) => JSON.stringify(value)).join(', ')}]);`);
      return name;
    });
    return `${set}.has(${v})`;
  }

  private array(schema: ZodMiniType, elementSchema: ZodMiniType, v: string): string | undefined {
    const check = this.declared(schema, (name) => {
      const item = this.fresh();
      const index = this.fresh();
      const element = this.test(elementSchema, item);
      if (element === undefined) return undefined;
      this.shared.code.push(
        `function ${name}(a) {\n  if (!Array.isArray(a)) return false;\n  for (let ${index} = 0; ${index} < a.length; ${index}++) {\n    const ${item} = a[${index}];\n    if (!(${element})) return false;\n  }\n  return true;\n}`,
      );
      return name;
    });
    return check === undefined ? undefined : `${check}(${v})`;
  }

  private object(schema: ZodMiniType, def: Definition, v: string): string | undefined {
    // Extra keys: a loose object keeps them and a plain one drops them; either way they are accepted.
    const catchall = def.catchall ? internalsOf(def.catchall).def.type : undefined;
    if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'any') return undefined;
    const shape = def.shape ?? {};
    const check = this.declared(schema, (name) => {
      const body: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        if (key === '__proto__') return undefined;
        const value = this.fresh();
        const accepted = this.test(field, value);
        if (accepted === undefined) return undefined;
        const k = JSON.stringify(key);
        // As zod reads it: a key whose schema is optional on input (optional, default) may be
        // missing, and its schema accepts the undefined a missing key reads as; any other key must be there.
        if (internalsOf(field).optin === undefined) body.push(`if (!(${k} in o)) return false;`);
        body.push(`const ${value} = o[${k}];`, `if (!(${accepted})) return false;`);
      }
      const lines = ['if (typeof o !== "object" || o === null || Array.isArray(o)) return false;', ...body, 'return true;'];
      this.shared.code.push(`function ${name}(o) {\n  ${lines.join('\n  ')}\n}`);
      return name;
    });
    return check === undefined ? undefined : `${check}(${v})`;
  }
}

/** An enum value JSON writes as itself in JavaScript: a string or a finite number (others are left to zod). */
function writable(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

const HEADER = [
  '// Generated by `npm run generate` from src/api/schemas/responses.ts: do not edit.',
  '// One predicate per response schema, accepting exactly the bodies the schema accepts',
  '// (src/api/schemas/accept.ts); null where zod alone decides.',
];

/**
 * The module of predicates for `schemas` (name: schema), `ACCEPTORS`: one function per name, or null
 * where the schema uses something this module does not know. `declarations` is its .d.ts: it names
 * every response, so a shape used before `npm run generate` has written its predicate fails to compile.
 */
export function acceptorModule(schemas: Record<string, ZodMiniType>): { code: string; declarations: string } {
  const lines = [...HEADER, ''];
  const entries: string[] = [];
  const shared: Shared = { code: [], count: 0, written: new Map() };
  Object.entries(schemas).forEach(([name, schema]) => {
    const source = predicateSource(schema, shared);
    if (source) lines.push(`// ${name}`, ...source.declarations);
    entries.push(`  ${JSON.stringify(name)}: ${source ? `(value) => ${source.expression}` : 'null'},`);
  });
  lines.push('', 'export const ACCEPTORS = {', ...entries, '};', '');
  const declarations = [
    ...HEADER,
    '',
    'type Acceptor = ((value: unknown) => boolean) | null;',
    '',
    'export declare const ACCEPTORS: {',
    ...Object.keys(schemas).map((name) => `  ${JSON.stringify(name)}: Acceptor;`),
    '};',
    '',
  ];
  return { code: lines.join('\n'), declarations: declarations.join('\n') };
}
