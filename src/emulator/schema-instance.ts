/**
 * Builds a small value that satisfies a JSON Schema, so an emulated task with an output schema
 * returns an object of the right shape. Covers what task schemas use: type, properties, required,
 * items/minItems, enum, const, default, anyOf/oneOf/allOf, string formats.
 */
export function exampleFor(schema: unknown, depth = 0): unknown {
  if (schema === true || schema === undefined || depth > 20) return 'example';
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('default' in s) return s.default;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) return exampleFor(options[0], depth + 1);
  }
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => exampleFor(part, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : s.items ? 'array' : 'string')) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, exampleFor(value, depth + 1)]));
    }
    case 'array': {
      const count = typeof s.minItems === 'number' ? Math.max(1, s.minItems) : 1;
      return Array.from({ length: count }, () => exampleFor(s.items, depth + 1));
    }
    case 'integer':
      return typeof s.minimum === 'number' ? Math.ceil(s.minimum) : 42;
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 19.99;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
      if (s.format === 'email') return 'someone@example.com';
      return 'example';
  }
}
