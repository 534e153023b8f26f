// The service's verdict on an output_schema (api/serializers.py, BrowserUseAgentTaskSerializer
// .validate_output_schema), in its order and its words: the draft 2020-12 meta-schema
// (Draft202012Validator.check_schema, with the validator's format checker), then the depth as
// `_max_depth` counts it, then the property count as `_count_props` counts it. Shared by the
// emulator (a 400) and the client's own check before any request (checkOutputSchema). Its own
// module, not validate.ts: the compiled meta-schema loads only where an output schema is read.
import validateMetaSchema from './meta-schema.generated.js';
import { isPythonRegex } from './python-regex.js';
import { SERVICE_LIMITS } from './limits.js';
import { UsageError } from '../errors.js';

export const SCHEMA_TOO_DEEP = `Schema too deep - maximum nesting level is ${SERVICE_LIMITS.outputSchemaDepth}`;
export const SCHEMA_TOO_COMPLEX = `Schema too complex - maximum property count is ${SERVICE_LIMITS.outputSchemaKeys}`;

/**
 * An output schema must be a JSON object (the service also takes `true` and `false`, which ask for
 * nothing) that the service's own check takes: the draft 2020-12 meta-schema, its depth and its size
 * (src/contract/output-schema.ts), so a mistake costs no request. `what` names it in the complaint.
 */
export function checkOutputSchema(schema: unknown, what = 'the output schema'): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UsageError(`${what} must be a JSON object, e.g. {"type":"object","properties":{...}}`);
  }
  const refused = outputSchemaProblem(schema);
  if (refused !== undefined) {
    throw new UsageError(`${what} would be refused by the service: ${refused}`, 'it must be a JSON Schema (draft 2020-12)');
  }
  return schema as Record<string, unknown>;
}

/** The service's message refusing this output_schema, or undefined when it takes it (null is taken). */
export function outputSchemaProblem(schema: unknown): string | undefined {
  if (schema === null) return undefined;
  const invalid = metaSchemaProblem(schema);
  if (invalid !== undefined) return `Invalid JSON Schema: ${invalid}`;
  if (maxDepth(schema) > SERVICE_LIMITS.outputSchemaDepth) return SCHEMA_TOO_DEEP;
  if (countProps(schema) > SERVICE_LIMITS.outputSchemaKeys) return SCHEMA_TOO_COMPLEX;
  return undefined;
}

/**
 * What the meta-schema says is wrong, in Ajv's words (the service's are Python's repr of the
 * meta-schema's fragment: the verdict is the same, the wording is not).
 */
function metaSchemaProblem(schema: unknown): string | undefined {
  let valid: boolean;
  try {
    valid = validateMetaSchema(schema);
  } catch (error) {
    // The service's own check fails the same way (Python's RecursionError, also "Invalid JSON Schema").
    if (error instanceof RangeError) return 'nested too deeply to check';
    throw error;
  }
  if (!valid) {
    const error = validateMetaSchema.errors?.[0];
    const where = error?.instancePath ? `${error.instancePath} ` : '';
    return `${where}${error?.message ?? 'does not follow the draft 2020-12 meta-schema'}`;
  }
  const pattern = badPattern(schema);
  return pattern === undefined ? undefined : `${JSON.stringify(pattern)} is not a 'regex'`;
}

// Where the meta-schema's applicator vocabulary puts a subschema (only there are `pattern` and
// `patternProperties` keywords, and so checked as regular expressions).
const ONE = ['additionalProperties', 'propertyNames', 'items', 'contains', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const LIST = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/** The first `pattern` (or `patternProperties` name) in a meta-valid schema that Python's `re` refuses. */
function badPattern(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const node = schema as Record<string, unknown>;
  if (typeof node.pattern === 'string' && !isPythonRegex(node.pattern)) return node.pattern;
  const names = node.patternProperties;
  if (typeof names === 'object' && names !== null) {
    const bad = Object.keys(names).find((name) => !isPythonRegex(name));
    if (bad !== undefined) return bad;
  }
  const children: unknown[] = [];
  for (const key of ONE) if (key in node) children.push(node[key]);
  for (const key of LIST) if (Array.isArray(node[key])) children.push(...(node[key] as unknown[]));
  for (const key of MAP) if (typeof node[key] === 'object' && node[key] !== null) children.push(...Object.values(node[key] as object));
  for (const child of children) {
    const bad = badPattern(child);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/** `_max_depth`: the longest path of keys and indexes; a scalar, an empty object or list end a path. */
function maxDepth(root: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** `_count_props`: every object's keys, however deep, in lists too. */
function countProps(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value)) count += Object.keys(value).length;
    stack.push(...Object.values(value));
  }
  return count;
}
