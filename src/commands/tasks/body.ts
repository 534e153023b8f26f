import { readTextInput, readJsonArgument } from '../../cli/input.js';
import { UsageError } from '../../errors.js';
import type { Redactor } from '../../api/redact.js';
import type { Secrets, TaskBody } from '../../api/schemas/task.js';
import { checkOutputSchema } from '../../contract/output-schema.js';
import { addSecret, checkSecrets } from '../../contract/validate.js';

/** The task fields of create, update and replace, checked by the verbs' parse steps (options.ts). */
export interface TaskFieldOptions {
  promptFile?: string;
  outputSchema?: string;
  /** --secret DOMAIN KEY=VALUE, in order. */
  secrets: Array<{ domain: string; key: string; value: string }>;
  /** --secret-env DOMAIN KEY=ENVVAR, in order; the variables are read when the body is built. */
  secretsFromEnv: Array<{ domain: string; key: string; variable: string }>;
  secretsFile?: string;
  /** null: --no-webhook. */
  webhook?: string | null;
  /** Seconds, 0..1350. */
  wait?: number;
  creditsCost?: string;
}

export type TaskBodyMode = 'create' | 'update' | 'replace';

/**
 * Turns the checked fields of `tasks create|update|replace` into the task body, reading the prompt,
 * schema and secrets from files, stdin and the environment. Secret values are registered with the redactor so they can
 * never show up in a trace or an error.
 */
export async function buildTaskBody(
  promptArg: string | undefined,
  options: TaskFieldOptions,
  mode: TaskBodyMode,
  io: { env: Record<string, string | undefined>; stdin: NodeJS.ReadableStream },
  redactor: Redactor,
): Promise<TaskBody> {
  const body: TaskBody = {};
  const prompt = await readPrompt(promptArg, options.promptFile, io.stdin);
  if (prompt !== undefined) body.prompt = prompt;
  else if (mode !== 'update') {
    throw new UsageError('a prompt is required', 'give it as an argument, with --prompt-file PATH, or on stdin with -');
  }

  if (options.outputSchema !== undefined) {
    body.output_schema = checkOutputSchema(await readJsonArgument(options.outputSchema, '--output-schema', io.stdin));
  }
  const secrets = await collectSecrets(options, io);
  if (secrets) {
    for (const pairs of Object.values(secrets)) for (const value of Object.values(pairs)) redactor.add(value);
    body.secrets = secrets;
  }
  if (options.webhook !== undefined) body.webhook = options.webhook;
  // Some deployments read 0 as "no limit": "don't wait" is sent by leaving the field out.
  if (options.wait) body.wait = options.wait;
  if (options.creditsCost !== undefined) body.credits_cost = options.creditsCost;

  if (mode === 'update' && Object.keys(body).length === 0) {
    throw new UsageError('nothing to update', 'give at least one field, e.g. --prompt-file PATH or --webhook URL');
  }
  return body;
}

async function readPrompt(promptArg: string | undefined, promptFile: string | undefined, stdin: NodeJS.ReadableStream): Promise<string | undefined> {
  if (promptArg !== undefined && promptFile !== undefined) {
    throw new UsageError('give the prompt either as an argument or with --prompt-file, not both');
  }
  let prompt: string | undefined;
  if (promptArg === '-') prompt = await readTextInput('-', 'prompt', stdin);
  else if (promptFile !== undefined) prompt = await readTextInput(promptFile, '--prompt-file', stdin);
  else prompt = promptArg;
  if (prompt === undefined) return undefined;
  // Files and stdin usually end with a newline that is not part of the prompt.
  const trimmed = promptArg === undefined || promptArg === '-' ? prompt.replace(/\r?\n$/, '') : prompt;
  if (trimmed.trim() === '') throw new UsageError('the prompt is empty');
  return trimmed;
}

/** Merges --secrets-file, --secret and --secret-env (in that order) into the nested shape. */
async function collectSecrets(
  options: TaskFieldOptions,
  { env, stdin }: { env: Record<string, string | undefined>; stdin: NodeJS.ReadableStream },
): Promise<Secrets | undefined> {
  if (options.secretsFile === undefined && options.secrets.length === 0 && options.secretsFromEnv.length === 0) return undefined;
  const secrets: Secrets = {};
  if (options.secretsFile !== undefined) {
    const fromFile = checkSecrets(await readJsonArgument(options.secretsFile, '--secrets-file', stdin), '--secrets-file');
    for (const [domain, pairs] of Object.entries(fromFile)) for (const [key, value] of Object.entries(pairs)) addSecret(secrets, domain, key, value);
  }
  const add = (domain: string, key: string, value: string) => {
    if (domain.trim() === '') throw new UsageError('a secret needs a domain, e.g. --secret https://example.com PASSWORD=...');
    addSecret(secrets, domain, key, value);
  };
  for (const { domain, key, value } of options.secrets) add(domain, key, value);
  for (const { domain, key, variable } of options.secretsFromEnv) {
    const value = env[variable];
    if (value === undefined) throw new UsageError(`--secret-env: environment variable ${variable} is not set`);
    add(domain, key, value);
  }
  return checkSecrets(secrets);
}
