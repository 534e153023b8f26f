import { describe, expect, it } from 'vitest';
import type { ZodMiniType as ZodType } from 'zod/mini';
import { PingSchema, pageOf } from '../../src/api/schemas/common.js';
import { LegacyAgentSchema } from '../../src/api/schemas/legacy-agent.js';
import {
  ActivationResponseSchema,
  MessageResponseSchema,
  PersistentAgentListItemSchema,
  PersistentAgentSchema,
  ProcessingStatusSchema,
  SchedulePreviewSchema,
  TimelineSchema,
  WebTasksResponseSchema,
} from '../../src/api/schemas/persistent-agent.js';
import { CancelResponseSchema, TaskResultSchema, TaskSchema } from '../../src/api/schemas/task.js';
import { createValidator, type Schema } from './contract.js';

// Goal: nothing the service may send makes a command fail. Examples are generated from the
// document's schemas (with the service's overrides, see ./contract.ts) in three variants: every key
// with a value, every nullable key null (the other choice of each union), and only the keys the
// document requires. Each example is first checked against the contract (so the generator is
// honest), then parsed with the CLI's own zod schema.
//
// One allowance: the document marks no key of a record required, yet a record without its `id` or
// `name` (a task without its `status`, an event without `kind`) is nothing a person or the CLI could
// tell apart or act on, and nothing the service's serializers ever send (they always write their
// read-only fields). Those keys stay in the minimal examples; everything else may be missing.
const IDENTITY_KEYS = new Set(['id', 'name', 'status', 'kind', 'cursor', 'timestamp']);

type Variant = 'full' | 'nulls' | 'minimal';
type Json = Record<string, unknown>;

const validator = createValidator(false);
const defs = validator.definitions as Record<string, Json>;

function resolve(schema: Schema): Json {
  if (typeof schema === 'boolean') return {};
  if (typeof schema.$ref === 'string') return resolve(defs[schema.$ref.replace('#/definitions/', '')] as Json);
  return schema;
}

const STRINGS: Record<string, string> = {
  uuid: '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f',
  'date-time': '2026-03-02T10:00:00Z',
  email: 'someone@example.com',
  uri: 'https://service.example/api/v1/tasks/browser-use/?page=2',
  decimal: '0.400',
};

/** One value of `schema` in the given variant. */
function example(input: Schema, variant: Variant, depth = 0): unknown {
  const schema = resolve(input);
  if ('const' in schema) return schema.const;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (options) {
      const isNull = (option: Schema) => resolve(option).type === 'null';
      const pick = variant === 'nulls' ? (options.find(isNull) ?? options[options.length - 1]) : (options.find((option) => !isNull(option)) ?? options[0]);
      return example(pick as Schema, variant, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as Schema[]).map(resolve);
    if (parts.length === 1 || !parts.every((part) => part.type === 'object' || part.properties)) return example(parts[0] as Schema, variant, depth + 1);
    // Objects described in parts: one object with every part's properties and required keys.
    const merged: Json = { type: 'object', properties: {}, required: [] };
    for (const part of parts) {
      Object.assign(merged.properties as Json, part.properties);
      (merged.required as string[]).push(...((part.required ?? []) as string[]));
    }
    return example(merged, variant, depth + 1);
  }
  if (Array.isArray(schema.enum)) return variant === 'nulls' ? schema.enum[schema.enum.length - 1] : schema.enum[0];
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const type = (variant === 'nulls' && types.includes('null')) || (types.length > 0 && types.every((t) => t === 'null')) ? 'null' : (types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined));
  switch (type) {
    case 'null':
      return null;
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const keys = Object.keys(properties).filter((key) => variant !== 'minimal' || required.has(key) || IDENTITY_KEYS.has(key));
      return Object.fromEntries(keys.map((key) => [key, example(properties[key] as Schema, variant, depth + 1)]));
    }
    case 'array':
      return variant === 'minimal' || depth > 6 ? [] : [example((schema.items ?? {}) as Schema, variant, depth + 1)];
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 7;
    case 'number':
      return 1.5;
    case 'boolean':
      return variant !== 'nulls';
    case 'string': {
      if (typeof schema.pattern === 'string' && schema.pattern === '^\\d+$') return '42';
      return STRINGS[schema.format as string] ?? 'text';
    }
    default:
      // No type at all (output_schema, result): anything; null in the nulls variant.
      return variant === 'nulls' ? null : variant === 'minimal' ? 'text' : { any: ['json', 1] };
  }
}

/** The document's (or override) schema name -> the CLI schema that reads that answer. */
const CLI_SCHEMAS: [string, ZodType][] = [
  ['PingResponse', PingSchema],
  ['AgentDetail', LegacyAgentSchema],
  ['AgentList', LegacyAgentSchema],
  ['PaginatedAgentListList', pageOf(LegacyAgentSchema)],
  ['TaskDetail', TaskSchema],
  ['TaskWaitAnswer', TaskSchema],
  ['TaskList', TaskSchema],
  ['PaginatedTaskListList', pageOf(TaskSchema)],
  ['TaskResult', TaskResultSchema],
  ['CancelTaskResponse', CancelResponseSchema],
  ['PersistentAgentDetail', PersistentAgentSchema],
  ['PersistentAgentList', PersistentAgentListItemSchema],
  ['PaginatedPersistentAgentListList', pageOf(PersistentAgentListItemSchema)],
  ['Activation', ActivationResponseSchema],
  ['MessageCreated', MessageResponseSchema],
  ['ProcessingStatus', ProcessingStatusSchema],
  ['Timeline', TimelineSchema],
  ['WebTasks', WebTasksResponseSchema],
  ['SchedulePreview', SchedulePreviewSchema],
];

/** Every branch of a oneOf (TaskResult's four outcomes) as its own schema. */
function branches(name: string): Schema[] {
  const schema = resolve({ $ref: `#/definitions/${name}` });
  return (schema.oneOf as Schema[] | undefined) ?? [schema];
}

describe('the CLI accepts every answer the document allows', () => {
  for (const [name, cliSchema] of CLI_SCHEMAS) {
    for (const variant of ['full', 'nulls', 'minimal'] as const) {
      it(`${name} (${variant})`, () => {
        for (const branch of branches(name)) {
          const sample = example(branch, variant);
          expect(validator.problems(name, sample), `the generated ${name} example conforms: ${JSON.stringify(sample)}`).toEqual([]);
          const parsed = cliSchema.safeParse(sample);
          expect(parsed.success ? [] : parsed.error.issues, `${name} ${variant}: ${JSON.stringify(sample)}`).toEqual([]);
        }
      });
    }
  }

  it('covers every response schema of the document', () => {
    const named = new Set(CLI_SCHEMAS.map(([name]) => name));
    const responses = ['PingResponse', 'AgentDetail', 'PaginatedAgentListList', 'TaskDetail', 'PaginatedTaskListList', 'CancelTaskResponse', 'PersistentAgentDetail', 'PaginatedPersistentAgentListList'];
    expect(responses.filter((name) => !named.has(name))).toEqual([]);
  });
});
