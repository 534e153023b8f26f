// The JSON Schemas a client is shown, from the tools' zod schemas: the one place they are emitted.
// Input schemas reach the model (and hosts that translate them for it); output schemas reach only the
// client's validator, so they keep what it checks and nothing else (docs/mcp.md, "Size of the list").
import * as z from 'zod';

type Json = Record<string, unknown>;

const isEmpty = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/** zod's bounds for an int(): the safe integers, which say nothing to a model. */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * An input schema as every host takes it. Gemini's function declarations (an OpenAPI subset) refuse
 * the whole tool list for one `$schema`, `propertyNames` or `exclusiveMinimum`: those go, and an
 * exclusive bound is shown as the inclusive one (the tool's own check still refuses the bound itself).
 */
export function inputJsonSchema(schema: z.ZodType): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Json;
  return walk(json, hostSafe);
}

function hostSafe(node: Json): Json {
  const { propertyNames: _, exclusiveMinimum, exclusiveMaximum, ...rest } = node;
  if (typeof exclusiveMinimum === 'number' && rest.minimum === undefined) rest.minimum = exclusiveMinimum;
  if (typeof exclusiveMaximum === 'number' && rest.maximum === undefined) rest.maximum = exclusiveMaximum;
  // Allows what is allowed anyway: what zod writes for a record of anything.
  if (isEmpty(rest.additionalProperties)) delete rest.additionalProperties;
  if (rest.minimum === -SAFE) delete rest.minimum;
  if (rest.maximum === SAFE) delete rest.maximum;
  return rest;
}

/**
 * An output schema for the client's validator (draft-07, what the SDK's Ajv reads): what every answer
 * has, and nothing a validator does not need. No descriptions (no model reads them); in an open object
 * (additional properties allowed) only the required properties: an optional one allows what is
 * allowed anyway, and the records' optional fields were most of the tool list (docs/mcp.md).
 */
export function outputJsonSchema(schema: z.core.$ZodType): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema as z.ZodType, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as Json;
  return walk(json, lean);
}

function lean(node: Json): Json {
  const { description: _d, title: _t, examples: _e, default: _default, propertyNames: _p, ...rest } = node;
  if (isEmpty(rest.additionalProperties)) delete rest.additionalProperties;
  if (isEmpty(rest.items)) delete rest.items;
  if (rest.const !== undefined || rest.enum !== undefined) delete rest.type;
  const properties = rest.properties as Record<string, unknown> | undefined;
  if (properties && rest.additionalProperties === undefined) {
    const required = new Set((rest.required as string[] | undefined) ?? []);
    const kept = Object.entries(properties).filter(([name, value]) => required.has(name) && !isEmpty(value));
    if (kept.length > 0) rest.properties = Object.fromEntries(kept);
    else delete rest.properties;
  }
  return rest;
}

/** The schema with `visit` applied to every subschema, innermost first. */
function walk(node: Json, visit: (node: Json) => Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, sub]) => [name, walk(sub as Json, visit)]));
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || (key === 'items' && Array.isArray(value))) {
      out[key] = (value as Json[]).map((sub) => walk(sub, visit));
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && typeof value === 'object' && value !== null) {
      out[key] = walk(value as Json, visit);
    } else {
      out[key] = value;
    }
  }
  return visit(out);
}
