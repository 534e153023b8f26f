// The TypeScript declarations of the library's records, written from their zod schemas, so a schema
// is the one description of a record: the client checks responses against it (accept.ts compiles
// it into a predicate) and the library's users see the type it declares. Users' type checks must
// not need zod (a devDependency, bundled away), hence declarations as text rather than z.infer.
// `npm run generate` writes them (src/client/records.generated.ts) for the records named in
// records.ts; a unit test fails while that file is out of date, another holds each declaration to
// z.output of its schema (test/core/record-types.test.ts).
//
// It knows the constructs our response schemas use; for anything else (a transform, a pipe...) it
// throws, naming the field: a declaration that guessed would be a type users rely on that lies.
import type { ZodMiniType } from 'zod/mini';
import { internalsOf, type Definition } from './definition.js';

/** Where the words of a record or field are kept (common.ts's RECORD_DOCS). */
export interface DocSource {
  get(schema: ZodMiniType): { description: string } | undefined;
}

/** The module declaring `records` (name: schema): an interface per object, a type alias for the rest. */
export function declarationModule(records: Record<string, ZodMiniType>, docs: DocSource, header: string[]): string {
  const writer = new DeclarationWriter(records, docs);
  const blocks = Object.entries(records).map(([name, schema]) => writer.declaration(name, schema));
  return `${[...header, '', blocks.join('\n\n')].join('\n')}\n`;
}

const INDENT = '  ';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Wrappers whose words may be the field's: a field documented as `doc('...', z.optional(...))` or inside. */
const WRAPPERS = new Set(['optional', 'nullable', 'default']);

/** Writes each record's declaration; a record inside another is named, not written again. */
class DeclarationWriter {
  private readonly names: Map<ZodMiniType, string>;
  /** Each documented field's name: one documented schema under two names is a shared one documented by mistake. */
  private readonly documented = new Map<ZodMiniType, string>();

  constructor(
    records: Record<string, ZodMiniType>,
    private readonly docs: DocSource,
  ) {
    this.names = new Map(Object.entries(records).map(([name, schema]) => [schema, name]));
  }

  declaration(name: string, schema: ZodMiniType): string {
    const { def } = internalsOf(schema);
    const words = this.docs.get(schema)?.description;
    const head = words === undefined ? [] : [comment(words, '')];
    if (def.type === 'object') return [...head, `export interface ${name} {`, ...this.members(def, INDENT, name), '}'].join('\n');
    return [...head, `export type ${name} = ${this.typeOf(schema, '', name)};`].join('\n');
  }

  /** The type of `schema`'s output, its lines after the first indented by `indent`; `path` names it in errors. */
  private type(schema: ZodMiniType, indent: string, path: string): string {
    return this.names.get(schema) ?? this.typeOf(schema, indent, path);
  }

  private typeOf(schema: ZodMiniType, indent: string, path: string): string {
    const { def, values } = internalsOf(schema);
    switch (def.type) {
      case 'unknown':
      case 'any':
        return 'unknown';
      case 'string':
      case 'number':
      case 'boolean':
      case 'null':
        return def.type;
      case 'enum':
        return literals([...(values ?? [])], path);
      case 'literal':
        return literals(def.values ?? [], path);
      case 'nullable':
        return `${this.type(inner(def, path), indent, path)} | null`;
      case 'optional':
        return `${this.type(inner(def, path), indent, path)} | undefined`;
      case 'default':
        return this.type(inner(def, path), indent, path);
      case 'union':
        return (def.options ?? []).map((option) => this.type(option, indent, path)).join(' | ');
      case 'array': {
        if (!def.element) throw new Error(`${path}: an array without its element`);
        const element = this.type(def.element, indent, `${path}[]`);
        return IDENTIFIER.test(element) ? `${element}[]` : `Array<${element}>`;
      }
      case 'record':
        if (!def.keyType || !def.valueType) throw new Error(`${path}: a record without its key or value`);
        return `Record<${this.type(def.keyType, indent, `${path} key`)}, ${this.type(def.valueType, indent, `${path}{}`)}>`;
      case 'object':
        return ['{', ...this.members(def, indent + INDENT, path), `${indent}}`].join('\n');
      default:
        throw new Error(`${path}: declare.ts cannot declare a "${def.type}" schema`);
    }
  }

  /** An object's fields, each with its words, and an index signature where unknown keys are kept. */
  private members(def: Definition, indent: string, path: string): string[] {
    const lines: string[] = [];
    for (const [key, field] of Object.entries(def.shape ?? {})) {
      const at = `${path}.${key}`;
      const words = this.fieldDoc(field, key, at);
      if (words !== undefined) lines.push(comment(words, indent));
      // Optional in the output (z.optional, not a default): `key?:`, its type without the `| undefined`.
      const { def: fieldDef, optout } = internalsOf(field);
      const type = fieldDef.type === 'optional' && !this.names.has(field) ? this.type(inner(fieldDef, at), indent, at) : this.type(field, indent, at);
      lines.push(`${indent}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}${optout === 'optional' ? '?' : ''}: ${type};`);
    }
    const catchall = def.catchall ? internalsOf(def.catchall).def.type : 'never';
    if (catchall === 'unknown' || catchall === 'any') lines.push(`${indent}[field: string]: unknown;`);
    else if (catchall !== 'never') throw new Error(`${path}: declare.ts cannot declare unknown keys of a "${catchall}" schema`);
    return lines;
  }

  /** The words of a field: its schema's, or those of the schema it wraps (up to a named record, which has its own). */
  private fieldDoc(field: ZodMiniType, key: string, at: string): string | undefined {
    for (let schema: ZodMiniType | undefined = field; schema && !this.names.has(schema); schema = internalsOf(schema).def.innerType) {
      const words = this.docs.get(schema)?.description;
      if (words !== undefined) {
        const other = this.documented.get(schema);
        if (other !== undefined && other !== key) throw new Error(`${at}: its words are those of a schema also used as "${other}" (give each field its own schema)`);
        this.documented.set(schema, key);
        return words;
      }
      if (!WRAPPERS.has(internalsOf(schema).def.type)) return undefined;
    }
    return undefined;
  }
}

function inner(def: Definition, path: string): ZodMiniType {
  if (!def.innerType) throw new Error(`${path}: a ${def.type} schema without its inner schema`);
  return def.innerType;
}

/** A union of literal types: strings and finite numbers, as JSON writes them. */
function literals(values: unknown[], path: string): string {
  if (values.length === 0 || !values.every((value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
    throw new Error(`${path}: declare.ts declares enums and literals of strings and finite numbers only`);
  }
  return values.map((value) => JSON.stringify(value)).join(' | ');
}

/** A JSDoc comment: one line, or one per line of the words. */
function comment(words: string, indent: string): string {
  if (words.includes('*/')) throw new Error(`a record's words must not hold "*/": ${words}`);
  const lines = words.split('\n');
  if (lines.length === 1) return `${indent}/** ${words} */`;
  return [`${indent}/**`, ...lines.map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`), `${indent} */`].join('\n');
}
