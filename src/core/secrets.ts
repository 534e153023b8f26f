// Task secrets by reference, under the policy of the person who runs agentctl. A caller that is not
// that person (a model driving `agentctl mcp`, which may be following instructions a web page gave
// it) names an environment variable or a file, never a value; it gets only the variables and the
// folder the person allowed. Everything is checked before any value is read or any request sent.
import type { Redactor } from '../api/redact.js';
import type { Secrets } from '../api/schemas/task.js';
import { checkSecrets } from '../contract/validate.js';
import { InputError } from '../errors.js';
import { inField } from './fields.js';
import { readSecretsFile } from './secrets-file.js';

/** Variables no policy hands out: agentctl's own key and the MCP server's bearer token. */
const NEVER_SHARED = new Set(['AGENTCTL_API_KEY', 'AGENTCTL_MCP_TOKEN']);

/** What the person running agentctl allows a caller to use as task secrets. */
export interface SecretPolicy {
  /** Environment variables a caller may name, exactly. */
  envNames: readonly string[];
  /** Prefixes: a variable whose name starts with one may be named too. */
  envPrefixes: readonly string[];
  /** The folder secrets files must lie in, directly; none: no files at all. */
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
  /** A secrets file ({"https://site": {"KEY": "value"}}) in the policy's folder: its name, or its path. */
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
  const secrets: Secrets = {};
  if (request.file !== undefined) {
    for (const [domain, pairs] of Object.entries(await readSecretsFile(request.file, source.policy.directory))) secrets[domain] = { ...pairs };
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
