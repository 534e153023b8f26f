// Task secrets by reference, under the policy of the person who runs agentctl. A caller that is not
// that person (a model driving `agentctl mcp`, which may be following instructions a web page gave
// it) names an environment variable or a file, never a value; it gets only the variables and the
// folder the person allowed. Everything is checked before any value is read or any request sent.
import { realpath, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Redactor } from '../api/redact.js';
import type { Secrets } from '../api/schemas/task.js';
import { describeJsonError } from '../contract/json-error.js';
import { checkSecrets } from '../contract/validate.js';
import { InputError } from '../errors.js';
import { inField } from './fields.js';

/** Variables no policy hands out: agentctl's own key and the MCP server's bearer token. */
const NEVER_SHARED = new Set(['AGENTCTL_API_KEY', 'AGENTCTL_MCP_TOKEN']);
/** The largest secrets file read (the service's limit on all secrets is 100 KB). */
const MAX_SECRETS_FILE_BYTES = 256 * 1024;

/** What the person running agentctl allows a caller to use as task secrets. */
export interface SecretPolicy {
  /** Environment variables a caller may name, exactly. */
  envNames: readonly string[];
  /** Prefixes: a variable whose name starts with one may be named too. */
  envPrefixes: readonly string[];
  /** The folder secrets files must lie in (links resolved); none: no files at all. */
  directory?: string;
}

/** One secret from an environment variable: `{domain: {key: $variable}}`. */
export interface EnvSecret {
  domain: string;
  key: string;
  variable: string;
}

export interface SecretsRequest {
  fromEnv?: readonly EnvSecret[];
  /** A secrets file ({"https://site": {"KEY": "value"}}), absolute or relative to the policy's folder. */
  file?: string;
}

/** The variable names and prefixes a policy allows, for descriptions ("none" when it allows none). */
export function describeEnvPolicy(policy: SecretPolicy): string {
  const names = [...policy.envNames, ...policy.envPrefixes.map((prefix) => `${prefix}*`)];
  return names.length === 0 ? 'none' : names.join(', ');
}

/** Whether the policy lets a caller read this variable. */
export function allowsVariable(policy: SecretPolicy, variable: string): boolean {
  if (NEVER_SHARED.has(variable)) return false;
  return policy.envNames.includes(variable) || policy.envPrefixes.some((prefix) => variable.startsWith(prefix));
}

/**
 * The secrets a request names, read under the policy: every reference is checked against the
 * policy before any value is read. Values are registered with the redactor, so no answer, log or
 * error shows them. Errors name the field (`secrets_env`, `secrets_file`) and never a value.
 */
export async function resolveSecrets(
  request: SecretsRequest,
  source: { env: Record<string, string | undefined>; policy: SecretPolicy; redactor: Redactor },
): Promise<Secrets | undefined> {
  const fromEnv = request.fromEnv ?? [];
  if (fromEnv.length === 0 && request.file === undefined) return undefined;
  const refused = fromEnv.filter(({ variable }) => !allowsVariable(source.policy, variable)).map(({ variable }) => variable);
  if (refused.length > 0) {
    throw new InputError(
      'secrets_env',
      `${[...new Set(refused)].join(', ')} ${refused.length === 1 ? 'is' : 'are'} not among the variables allowed for secrets (allowed: ${describeEnvPolicy(source.policy)}); ` +
        'only the person who starts agentctl can allow more',
    );
  }
  const path = request.file === undefined ? undefined : await allowedFile(request.file, source.policy);
  const secrets: Secrets = {};
  if (path !== undefined) {
    for (const [domain, pairs] of Object.entries(await readSecretsFile(path))) secrets[domain] = { ...pairs };
  }
  for (const { domain, key, variable } of fromEnv) {
    const value = source.env[variable];
    if (value === undefined) throw new InputError('secrets_env', `the environment variable ${variable} is not set`);
    if (domain.trim() === '') throw new InputError('secrets_env', `the secret ${key} needs a domain, e.g. https://example.com`);
    secrets[domain] = { ...secrets[domain], [key]: value };
  }
  const checked = inField('secrets_env', () => checkSecrets(secrets, 'the secrets'));
  for (const pairs of Object.values(checked)) for (const value of Object.values(pairs)) source.redactor.add(value);
  return checked;
}

/** The file's real path, if it lies in the policy's folder (no link or `..` leads out of it). */
async function allowedFile(file: string, policy: SecretPolicy): Promise<string> {
  if (policy.directory === undefined) {
    throw new InputError('secrets_file', 'secrets files are not allowed here: the person who starts agentctl can allow a folder of them');
  }
  const folder = await realpath(policy.directory).catch(() => {
    throw new InputError('secrets_file', 'the folder allowed for secrets files cannot be read');
  });
  const wanted = isAbsolute(file) ? file : join(folder, file);
  const real = await realpath(wanted).catch(() => undefined);
  const inside = (path: string) => {
    const rest = relative(folder, path);
    return rest !== '' && !rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest);
  };
  // Outside the folder, whether the file exists is not said either.
  if (!inside(wanted) && (real === undefined || !inside(real))) {
    throw new InputError('secrets_file', `${file} is not in the folder allowed for secrets files; name a file in it (relative names are read from it)`);
  }
  if (real === undefined) throw new InputError('secrets_file', `there is no file ${file} in the folder allowed for secrets files`);
  if (!inside(real)) throw new InputError('secrets_file', `${file} leads out of the folder allowed for secrets files`);
  return real;
}

async function readSecretsFile(path: string): Promise<Secrets> {
  const size = (await stat(path)).size;
  if (size > MAX_SECRETS_FILE_BYTES) throw new InputError('secrets_file', `the file is ${size} bytes; a secrets file is at most ${MAX_SECRETS_FILE_BYTES / 1024} KiB`);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError('secrets_file', `the file cannot be read (${error.code === 'EISDIR' ? 'it is a folder' : (error.code ?? 'unreadable')})`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Where the fault is, never the text: a wrong file may hold another secret.
    throw new InputError('secrets_file', `the file is not valid JSON: ${describeJsonError(text, error)}`);
  }
  return inField('secrets_file', () => checkSecrets(value, 'the file'));
}
