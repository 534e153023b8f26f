// Creating a task from the MCP server's arguments: the fields checked by the one task body
// (task-body.ts) before any secret is read, then the secrets the caller named resolved under the
// server's policy. Errors name the field (`prompt`, `output_schema`, `secrets_env`, `secrets_file`,
// `webhook`); the MCP face words them its own way.
import type { TaskBody } from '../api/schemas/task.js';
import { resolveSecrets, type SecretsRequest, type SecretsSource } from './secrets.js';
import { taskBody } from './task-body.js';

export interface TaskInput {
  prompt: string;
  /** A JSON Schema (an object) the result must follow. */
  outputSchema?: unknown;
  secrets?: SecretsRequest;
  /** An http(s) URL the service calls once when the task ends. */
  webhook?: string;
}

/** The body of a new task, every field checked before any secret is read or any request sent. */
export async function newTaskBody(input: TaskInput, source: SecretsSource): Promise<TaskBody> {
  const body = taskBody({ prompt: input.prompt, output_schema: input.outputSchema, webhook: input.webhook }, 'create');
  const secrets = input.secrets ? await resolveSecrets(input.secrets, source) : undefined;
  if (secrets) body.secrets = secrets;
  return body;
}
