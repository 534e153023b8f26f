// Task secrets by reference, under the policy of the person who runs agentctl. A caller that is not
// that person (a model driving `agentctl mcp`, which may be following instructions a web page gave
// it) names an environment variable or a file, never a value; it gets only the variables and the
// folder the person allowed. Everything is checked before any value is read or any request sent.
import type { Redactor } from '../api/redact.js';
import type { Secrets } from '../api/schemas/task.js';
import { addSecret, checkSecrets } from '../contract/validate.js';
import { InputError } from '../errors.js';
import { inField } from './fields.js';
import { readSecretsFile } from './secrets-file.js';

/**
 * Variables no policy hands out: agentctl's own key and the MCP server's bearer token. Compared
 * without case on every system: Windows reads AGENTCTL_API_KEy as AGENTCTL_API_KEY.
 */
const NEVER_SHARED = ['AGENTCTL_API_KEY', 'AGENTCTL_MCP_TOKEN'];
/**
 * A variable's name. Anything else is never looked up: the system reads a name only up to a NUL
 * (`AGENTCTL_API_KEY\0x` is the key), and Windows has names like `=C:`.
 */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` is one of agentctl's own credentials (in any case). */
export const isOwnVariable = (name: string) => NEVER_SHARED.includes(name.toUpperCase());

/** What the person running agentctl allows a caller to use as task secrets. */
export interface SecretPolicy {
  /** Environment variables a caller may name, exactly. */
  envNames: readonly string[];
  /** Prefixes: a variable whose name starts with one may be named too. */
  envPrefixes: readonly string[];
  /**
   * The only sites (secrets domains, compared without case) the variables of an entry, NAME or
   * PREFIX*, may be sent to. An entry without sites sends its variables to any site.
   */
  envSites?: ReadonlyMap<string, readonly string[]>;
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

/** Where the values come from, and what is never handed out. */
export interface SecretsSource {
  env: Record<string, string | undefined>;
  policy: SecretPolicy;
  redactor: Redactor;
  /** Whether a value is a credential agentctl uses (the API key it sends), never a task secret, wherever it is found. */
  isCredential?: (value: string) => boolean;
}

/** The variable names and prefixes a policy allows, with their sites, for descriptions ("none" when it allows none). */
export function describeEnvPolicy(policy: SecretPolicy): string {
  const entries = [...policy.envNames, ...policy.envPrefixes.map((prefix) => `${prefix}*`)];
  const described = entries.map((entry) => {
    const sites = policy.envSites?.get(entry);
    return sites === undefined ? entry : `${entry} (for ${sites.join(', ')} only)`;
  });
  return described.length === 0 ? 'none' : described.join(', ');
}

/** The entries of the policy (NAME, PREFIX*) that let a caller read this variable; none for agentctl's own. */
function entriesFor(policy: SecretPolicy, variable: string): string[] {
  if (!VARIABLE_NAME.test(variable) || isOwnVariable(variable)) return [];
  const names = policy.envNames.filter((name) => name === variable);
  return [...names, ...policy.envPrefixes.filter((prefix) => variable.startsWith(prefix)).map((prefix) => `${prefix}*`)];
}

/** The sites the entries let a variable go to; undefined: any site (an entry without sites). */
function sitesFor(policy: SecretPolicy, entries: readonly string[]): string[] | undefined {
  const sites = entries.map((entry) => policy.envSites?.get(entry));
  return sites.some((list) => list === undefined) ? undefined : [...new Set(sites.flatMap((list) => list ?? []))];
}

const sameSite = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Refuses, before any value is read, a variable the policy does not allow, or allows for other sites only. */
function checkAllowed(fromEnv: readonly EnvSecret[], policy: SecretPolicy): void {
  for (const { variable } of fromEnv) {
    if (!VARIABLE_NAME.test(variable)) throw new InputError('secrets_env', `${JSON.stringify(variable)} is not a variable name (a letter or _, then letters, digits or _)`);
    if (isOwnVariable(variable)) throw new InputError('secrets_env', `${variable} is agentctl's own credential, never a task secret`);
  }
  const refused = [...new Set(fromEnv.filter(({ variable }) => entriesFor(policy, variable).length === 0).map(({ variable }) => variable))];
  if (refused.length > 0) {
    throw new InputError(
      'secrets_env',
      `${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} not among the variables allowed for secrets (allowed: ${describeEnvPolicy(policy)}); ` +
        'only the person who starts agentctl can allow more',
    );
  }
  for (const { variable, domain } of fromEnv) {
    const sites = sitesFor(policy, entriesFor(policy, variable));
    if (sites !== undefined && !sites.some((site) => sameSite(site, domain))) {
      throw new InputError(
        'secrets_env',
        `${variable} may be sent only to ${sites.join(', ')} (not to ${JSON.stringify(domain).slice(1, -1)}); only the person who starts agentctl can allow more`,
      );
    }
  }
}

/** agentctl's own key and token: those its variables hold, and those it uses. */
function isCredential(value: string, source: SecretsSource): boolean {
  if (value === '') return false;
  return NEVER_SHARED.some((name) => source.env[name] === value) || source.isCredential?.(value) === true;
}

/**
 * The secrets a request names, read under the policy: every reference is checked against the
 * policy before any value is read. Values are registered with the redactor, so no answer, log or
 * error shows them. Errors name the field (`secrets_env`, `secrets_file`) and never a value.
 */
export async function resolveSecrets(request: SecretsRequest, source: SecretsSource): Promise<Secrets | undefined> {
  const fromEnv = request.fromEnv ?? [];
  if (fromEnv.length === 0 && request.file === undefined) return undefined;
  checkAllowed(fromEnv, source.policy);
  const secrets: Secrets = {};
  if (request.file !== undefined) {
    for (const [domain, pairs] of Object.entries(await readSecretsFile(request.file, source.policy.directory))) {
      for (const [key, value] of Object.entries(pairs)) {
        if (isCredential(value, source)) throw new InputError('secrets_file', "the file holds agentctl's own API key or MCP token, which is never a task secret");
        addSecret(secrets, domain, key, value);
      }
    }
  }
  for (const { domain, key, variable } of fromEnv) {
    const value = source.env[variable];
    if (value === undefined) throw new InputError('secrets_env', `the environment variable ${variable} is not set`);
    if (domain.trim() === '') throw new InputError('secrets_env', `the secret ${key} needs a domain, e.g. https://example.com`);
    if (isCredential(value, source)) throw new InputError('secrets_env', `${variable} holds agentctl's own API key or MCP token, which is never a task secret`);
    addSecret(secrets, domain, key, value);
  }
  const checked = inField('secrets_env', () => checkSecrets(secrets, 'secrets_env'));
  for (const pairs of Object.values(checked)) for (const value of Object.values(pairs)) source.redactor.add(value);
  return checked;
}
