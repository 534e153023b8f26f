// Creating a task, as a core operation: the typed fields a face gathered, checked as the service
// would check them, into the body to send. Errors name the field (`prompt`, `output_schema`,
// `secrets_env`, `secrets_file`, `webhook`); each face words them its own way.
import type { TaskBody } from '../api/schemas/task.js';
import { checkOutputSchema } from '../contract/output-schema.js';
import { checkHttpUrl } from '../contract/validate.js';
import { InputError } from '../errors.js';
import { inField } from './fields.js';
import { resolveSecrets, type SecretsRequest, type SecretsSource } from './secrets.js';

export interface TaskInput {
  prompt: string;
  /** A JSON Schema (an object) the result must follow. */
  outputSchema?: unknown;
  secrets?: SecretsRequest;
  /** An http(s) URL the service calls once when the task ends. */
  webhook?: string;
}

/** The body of a new task, every field checked before any secret is read or any request sent. */
export async function taskBody(input: TaskInput, source: SecretsSource): Promise<TaskBody> {
  if (input.prompt.trim() === '') throw new InputError('prompt', 'is empty: say what the browser agent should do');
  const body: TaskBody = { prompt: input.prompt };
  if (input.outputSchema !== undefined) body.output_schema = inField('output_schema', () => checkOutputSchema(input.outputSchema));
  const webhook = input.webhook;
  if (webhook !== undefined) body.webhook = inField('webhook', () => checkHttpUrl(webhook, 'the URL') && webhook);
  const secrets = input.secrets ? await resolveSecrets(input.secrets, source) : undefined;
  if (secrets) body.secrets = secrets;
  return body;
}
