import { readTextInput, readJsonArgument } from '../../cli/input.js';
import { UsageError } from '../../errors.js';
import type { Redactor } from '../../api/redact.js';
import type { Secrets, TaskBody } from '../../api/schemas/task.js';
import { withFlags, type FlagTable, type HintTable } from '../../cli/fields.js';
import { addSecret, checkSecrets } from '../../contract/validate.js';
import { taskBody, type TaskBodyMode, type TaskFields } from '../../core/task-body.js';

export type { TaskBodyMode };

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

/** The flag of each field of the core's task body (src/core/task-body.ts). */
export const TASK_FLAGS: FlagTable = {
  prompt: 'the prompt',
  output_schema: '--output-schema',
  // --secret, --secret-env and --secrets-file, merged.
  secrets: 'secrets:',
  webhook: '--webhook',
  wait: '--wait',
  credits_cost: '--credits-cost',
};

const HINTS: HintTable = {
  prompt: (error) => (error.problem.startsWith('is required') ? 'give it as an argument, with --prompt-file PATH, or on stdin with -' : ''),
  input: () => 'give at least one field, e.g. --prompt-file PATH or --webhook URL',
};

/**
 * Turns the fields of `tasks create|update|replace` into the core's input, reading the prompt,
 * schema and secrets from files, stdin and the environment; the core (src/core/task-body.ts) checks
 * them and builds the body, its secret values registered with the redactor so they can never show
 * up in a trace or an error.
 */
export async function buildTaskBody(
  promptArg: string | undefined,
  options: TaskFieldOptions,
  mode: TaskBodyMode,
  io: { env: Record<string, string | undefined>; stdin: NodeJS.ReadableStream },
  redactor: Redactor,
): Promise<TaskBody> {
  const fields: TaskFields = {
    prompt: await readPrompt(promptArg, options.promptFile, io.stdin),
    output_schema: options.outputSchema === undefined ? undefined : await readJsonArgument(options.outputSchema, '--output-schema', io.stdin),
    secrets: await collectSecrets(options, io),
    webhook: options.webhook,
    wait: options.wait,
    credits_cost: options.creditsCost,
  };
  return withFlags(TASK_FLAGS, () => taskBody(fields, mode, redactor), HINTS);
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
  return promptArg === undefined || promptArg === '-' ? prompt.replace(/\r?\n$/, '') : prompt;
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
  return secrets;
}
