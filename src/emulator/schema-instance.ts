/**
 * Builds a small value that satisfies a JSON Schema, so an emulated task with an output schema
 * returns an object of the right shape. Covers what task schemas use: type, properties, required,
 * items/minItems, enum, const, default, anyOf/oneOf/allOf, string formats and lengths.
 *
 * The schema comes from the request, so the value is bounded whatever it asks for: at most
 * MAX_DEPTH levels, MAX_ITEMS items per array, MAX_STRING characters per string and MAX_VALUES
 * values in all (a schema asking for more gets a value cut to these bounds, never a crash).
 */
export const SCHEMA_INSTANCE_BOUNDS = { MAX_DEPTH: 20, MAX_ITEMS: 100, MAX_STRING: 1000, MAX_VALUES: 10_000 } as const;

const { MAX_DEPTH, MAX_ITEMS, MAX_STRING, MAX_VALUES } = SCHEMA_INSTANCE_BOUNDS;

export function exampleFor(schema: unknown): unknown {
  const budget = { left: MAX_VALUES };
  return build(schema, 0, budget);
}

function count(value: unknown, limit: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(Math.floor(value), limit)) : 0;
}

function build(schema: unknown, depth: number, budget: { left: number }): unknown {
  budget.left--;
  if (schema === true || schema === undefined || depth > MAX_DEPTH || budget.left <= 0) return 'example';
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('default' in s) return s.default;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) return build(options[0], depth + 1, budget);
  }
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.slice(0, MAX_ITEMS).map((part) => build(part, depth + 1, budget));
    return parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0];
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : s.items ? 'array' : 'string')) {
    case 'object': {
      const properties = typeof s.properties === 'object' && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
      const result: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(properties)) {
        if (budget.left <= 0) break;
        result[key] = build(value, depth + 1, budget);
      }
      return result;
    }
    case 'array': {
      const items = Math.max(1, count(s.minItems, MAX_ITEMS));
      const result: unknown[] = [];
      for (let i = 0; i < items && budget.left > 0; i++) result.push(build(s.items, depth + 1, budget));
      return result;
    }
    case 'integer':
      return typeof s.minimum === 'number' && Number.isFinite(s.minimum) ? Math.ceil(s.minimum) : 42;
    case 'number':
      return typeof s.minimum === 'number' && Number.isFinite(s.minimum) ? s.minimum : 19.99;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
      if (s.format === 'email') return 'someone@example.com';
      const min = count(s.minLength, MAX_STRING);
      return min > 'example'.length ? 'example'.padEnd(min, 'x') : 'example';
    }
  }
}
