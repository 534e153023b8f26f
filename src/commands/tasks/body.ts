import { readTextInput, readJsonArgument } from '../../cli/input.js';
import { UsageError } from '../../errors.js';
import { splitTwoWords } from '../../cli/argv.js';
import type { Redactor } from '../../api/redact.js';
import type { Secrets, TaskBody } from '../../api/schemas/task.js';
import {
  LIMITS,
  checkCreditsCost,
  checkOutputSchema,
  checkSecrets,
  checkUuid,
  checkWebhookUrl,
  parseIntegerFlag,
  splitPair,
} from '../../contract/validate.js';

/** What create, update and replace accept, as commander hands it over. */
export interface TaskFieldOptions {
  promptFile?: string;
  outputSchema?: string;
  secret?: string[];
  secretEnv?: string[];
  secretsFile?: string;
  webhook?: string | false;
  wait?: string;
  creditsCost?: string;
  agent?: string;
}

export type TaskBodyMode = 'create' | 'update' | 'replace';

/**
 * Turns the arguments of `tasks create|update|replace` into the task body, checking every field
 * against the spec's limits first. Secret values are registered with the redactor so they can
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
  if (options.webhook === false) body.webhook = null;
  else if (options.webhook !== undefined) body.webhook = checkWebhookUrl(options.webhook);
  if (options.wait !== undefined) {
    const wait = parseIntegerFlag(options.wait, '--wait', 0, LIMITS.waitSeconds);
    // Some deployments read 0 as "no limit": "don't wait" is sent by leaving the field out.
    if (wait > 0) body.wait = wait;
  }
  if (options.creditsCost !== undefined) body.credits_cost = checkCreditsCost(options.creditsCost);

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
  if (options.secretsFile === undefined && !options.secret?.length && !options.secretEnv?.length) return undefined;
  const secrets: Secrets = {};
  if (options.secretsFile !== undefined) {
    const fromFile = checkSecrets(await readJsonArgument(options.secretsFile, '--secrets-file', stdin), '--secrets-file');
    for (const [domain, pairs] of Object.entries(fromFile)) secrets[domain] = { ...pairs };
  }
  const add = (domain: string, key: string, value: string) => {
    if (domain.trim() === '') throw new UsageError('a secret needs a domain, e.g. --secret https://example.com PASSWORD=...');
    secrets[domain] = { ...secrets[domain], [key]: value };
  };
  for (const raw of options.secret ?? []) {
    const [domain, pair] = splitTwoWords(raw);
    const [key, value] = splitPair(pair, '--secret');
    add(domain, key, value);
  }
  for (const raw of options.secretEnv ?? []) {
    const [domain, pair] = splitTwoWords(raw);
    const [key, variable] = splitPair(pair, '--secret-env', 'ENVVAR');
    const value = env[variable];
    if (value === undefined) throw new UsageError(`--secret-env: environment variable ${variable} is not set`);
    add(domain, key, value);
  }
  return checkSecrets(secrets);
}

export function parseAgentScope(agent: unknown): { agentId?: string } {
  return agent === undefined ? {} : { agentId: checkUuid(String(agent), '--agent') };
}
