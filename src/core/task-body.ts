// A task's request body, built once for every face (the command line's flags, the MCP server's
// arguments, the library's input, a batch file's lines): the fields as the service names them in,
// the body of a create (POST), update (PATCH) or replace (PUT) out, each field checked as the service
// checks it, so a mistake costs no request. Errors name the field (InputError); each face words it
// its own way. Where the secrets come from (flags, files, allowed variables) is the face's affair:
// they arrive here as the service's nested object.
import type { Secrets, TaskBody } from '../api/schemas/task.js';
import { checkOutputSchema } from '../contract/output-schema.js';
import { LIMITS } from '../contract/limits.js';
import type { Redactor } from '../api/redact.js';
import { checkCreditsCost, checkSecrets, checkWebhookUrl } from '../contract/validate.js';
import { InputError } from '../errors.js';
import { integer, fields, string, text } from './checks.js';
import { inField } from './fields.js';

export type { TaskBody };

/** The writable fields of a task, as the service names them. */
export interface TaskFields {
  /** What the browser agent should do; needed by a create and a replace. */
  prompt?: string;
  /** A JSON Schema (an object) the result must follow. */
  output_schema?: unknown;
  secrets?: Secrets;
  /** An http(s) URL the service calls once when the task ends; null clears it (an update). */
  webhook?: string | null;
  /** Seconds the service holds the request for the task's end, 0..1350; 0 is not sent. */
  wait?: number;
  credits_cost?: string;
}

export type TaskBodyMode = 'create' | 'update' | 'replace';

type Field = keyof TaskFields;

const CHECKS: { [F in Field]-?: (value: unknown) => TaskBody[F] } = {
  prompt: (value) => {
    const prompt = text('prompt', value);
    if (prompt.trim() === '') throw new InputError('prompt', 'is empty: say what the browser agent should do');
    return prompt;
  },
  output_schema: (value) => inField('output_schema', () => checkOutputSchema(value, 'output_schema')),
  secrets: (value) => inField('secrets', () => checkSecrets(value, 'secrets')),
  webhook: (value) => (value === null ? null : inField('webhook', () => checkWebhookUrl(string('webhook', value), 'webhook'))),
  wait: (value) => integer('wait', value, 0, LIMITS.waitSeconds),
  credits_cost: (value) => inField('credits_cost', () => checkCreditsCost(string('credits_cost', value), 'credits_cost')),
};

export const TASK_FIELDS = Object.keys(CHECKS) as Field[];

/**
 * The body of a create, update or replace: only the fields given (undefined is not given), each
 * checked; a create and a replace need the prompt, an update at least one field. An unknown field
 * is refused rather than sent (the service would ignore it). Secret values go to `redactor` at once,
 * so no trace or error of the request can show them.
 */
export function taskBody(input: TaskFields, mode: TaskBodyMode, redactor?: Pick<Redactor, 'add'>): TaskBody {
  const given = fields(input, '{ prompt: "..." }');
  const unknown = Object.keys(given).find((field) => given[field] !== undefined && !Object.hasOwn(CHECKS, field));
  if (unknown !== undefined) throw new InputError(unknown, `is not a field of a task (the fields: ${TASK_FIELDS.join(', ')})`);
  if (mode !== 'update' && given.prompt === undefined) throw new InputError('prompt', 'is required: say what the browser agent should do');
  const body: Record<string, unknown> = {};
  for (const field of TASK_FIELDS) if (given[field] !== undefined) body[field] = CHECKS[field](given[field]);
  // Some deployments read 0 as "no limit": "don't wait" is sent by leaving the field out.
  if (body.wait === 0) delete body.wait;
  for (const pairs of Object.values(body.secrets ?? {}) as Array<Record<string, string>>) for (const value of Object.values(pairs)) redactor?.add(value);
  if (mode === 'update' && Object.keys(given).every((field) => given[field] === undefined)) throw new InputError('input', 'nothing to update: give at least one field');
  return body as TaskBody;
}
