// `tasks result ID --check-schema`: validates a task's structured result against its own
// output_schema, locally, with Ajv (draft-07 by default; 2020-12 when the schema says so; formats
// from ajv-formats), so a CI job can trust the shape before it uses the data.
import type { ErrorObject } from 'ajv';

export interface SchemaCheck {
  valid: boolean;
  /** `path: message` lines, at most 20. */
  problems: string[];
}

/** Structured results sometimes arrive as JSON text: check the value it encodes. */
export function resultValue(result: unknown, schema: Record<string, unknown>): unknown {
  if (typeof result !== 'string' || schema.type === 'string') return result;
  try {
    return JSON.parse(result) as unknown;
  } catch {
    return result;
  }
}

export async function checkAgainstSchema(value: unknown, schema: Record<string, unknown>): Promise<SchemaCheck> {
  const is2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  // CommonJS modules: their exports object is `default`, and the class is its `default` again.
  const Ajv = (is2020 ? await import('ajv/dist/2020.js') : await import('ajv')).default.default;
  const addFormats = (await import('ajv-formats')).default.default;
  // Not strict: a schema written for the service may carry keywords Ajv does not know; all errors, not the first.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (validate(value)) return { valid: true, problems: [] };
  return { valid: false, problems: (validate.errors ?? []).slice(0, 20).map(describe) };
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(the result)' : error.instancePath;
  const extra = error.keyword === 'additionalProperties' ? ` "${String((error.params as { additionalProperty?: string }).additionalProperty)}"` : '';
  return `${where}: ${error.message ?? error.keyword}${extra}`;
}
