import { parseHttpUrl } from '../contract/url.js';
import { checkApiKey } from '../contract/validate.js';
import { UsageError } from '../errors.js';
import { DEFAULT_PROFILE, type ConfigStore, type Profile } from './store.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787/api/v1';
/** The emulator's default key: paired only with the built-in default base URL, so a fresh install works offline. */
export const EMULATOR_DEFAULT_KEY = 'emulator-key';
export { DEFAULT_TIMEOUT_SECONDS } from '../contract/limits.js';

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'none';

export interface ConnectionFlags {
  baseUrl?: string;
  apiKey?: string;
  apiKeyFile?: string;
  profile?: string;
}

export interface Settings {
  profile: string;
  baseUrl: string;
  baseUrlSource: Source;
  apiKey?: string;
  apiKeySource: Source;
}

/** Which profile to use: flag > AGENTCTL_PROFILE > "default". */
export function profileName(flags: ConnectionFlags, env: NodeJS.ProcessEnv): { name: string; explicit: boolean } {
  const name = flags.profile ?? env.AGENTCTL_PROFILE;
  return name ? { name, explicit: true } : { name: DEFAULT_PROFILE, explicit: false };
}

/**
 * Resolves the base URL and API key with the contract's precedence:
 * flag > environment > profile in the config file > built-in default.
 * The config file is only opened when a flag or variable leaves something unanswered.
 */
export async function resolveSettings(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  openStore: () => Promise<ConfigStore>,
  readStdin: () => Promise<string>,
): Promise<Settings> {
  const { name, explicit } = profileName(flags, env);
  let apiKey: string | undefined;
  let apiKeySource: Source = 'none';
  if (flags.apiKey !== undefined) [apiKey, apiKeySource] = [checkApiKey(flags.apiKey, '--api-key'), 'flag'];
  else if (flags.apiKeyFile !== undefined) [apiKey, apiKeySource] = [await readKeyFile(flags.apiKeyFile, readStdin), 'flag'];
  else if (env.AGENTCTL_API_KEY) [apiKey, apiKeySource] = [checkApiKey(env.AGENTCTL_API_KEY, '$AGENTCTL_API_KEY'), 'env'];

  let baseUrl: string | undefined;
  let baseUrlSource: Source = 'default';
  if (flags.baseUrl !== undefined) [baseUrl, baseUrlSource] = [flags.baseUrl, 'flag'];
  else if (env.AGENTCTL_BASE_URL) [baseUrl, baseUrlSource] = [env.AGENTCTL_BASE_URL, 'env'];

  if (apiKey === undefined || baseUrl === undefined || explicit) {
    const store = await openStore();
    const profile: Profile | undefined = store.profile(name);
    if (explicit && !profile) {
      const known = store.profileNames();
      throw new UsageError(
        `profile "${name}" is not in the config file`,
        known.length ? `known profiles: ${known.join(', ')}` : 'create it with `agentctl auth login --profile NAME`',
      );
    }
    if (apiKey === undefined && profile?.['api-key']) [apiKey, apiKeySource] = [checkApiKey(profile['api-key'], `profile "${name}"`), 'profile'];
    if (baseUrl === undefined && profile?.['base-url']) [baseUrl, baseUrlSource] = [profile['base-url'], 'profile'];
  }

  return {
    profile: name,
    baseUrl: normaliseBaseUrl(baseUrl ?? DEFAULT_BASE_URL),
    baseUrlSource,
    apiKey,
    apiKeySource,
  };
}

/** A base URL must be http(s); the trailing slash is dropped so paths join cleanly. */
export function normaliseBaseUrl(value: string): string {
  const parsed = parseHttpUrl(value);
  if ('reason' in parsed) {
    throw parsed.reason === 'invalid'
      ? new UsageError(`base URL "${value}" is not a valid URL`, 'use the form http://host:port/api/v1')
      : new UsageError(`base URL "${value}" must start with http:// or https://`);
  }
  const { url } = parsed;
  if (url.username || url.password) throw new UsageError('put credentials in the API key, not in the base URL');
  return url.href.replace(/\/+$/, '');
}

/** The most of an API key file read: a key is one short line; more is the wrong file. */
export const MAX_KEY_FILE_BYTES = 4096;

export async function readKeyFile(path: string, readStdin: () => Promise<string>): Promise<string> {
  let text: string;
  try {
    text = path === '-' ? await readStdin() : await readAtMost(path, MAX_KEY_FILE_BYTES + 1);
  } catch (error) {
    throw new UsageError(`cannot read the API key file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const from = path === '-' ? 'stdin' : `file ${path}`;
  if (Buffer.byteLength(text) > MAX_KEY_FILE_BYTES) {
    throw new UsageError(`the API key from ${from} is over ${MAX_KEY_FILE_BYTES / 1024} KB: an API key is one short line, this is not a key file`, 'give the file that holds only the key');
  }
  return checkApiKey(text, from);
}

/** The first `limit` bytes of a file as text: a big file (or /dev/zero) is not read whole to find it is too big. */
async function readAtMost(path: string, limit: number): Promise<string> {
  // node:fs/promises is loaded only when needed: loading it costs every API command ~0.9 ms.
  const file = await (await import('node:fs/promises')).open(path, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    let length = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, length, limit - length, null);
      if (bytesRead === 0 || (length += bytesRead) >= limit) break;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await file.close();
  }
}

/** Preferences stored in a profile (`config set output json`, `config set timeout 60`). */
export interface Preferences {
  /**
   * `json`: print JSON as with --json; `table`: a table even when piped (for a person reading through
   * a pager); `auto` (the default): a table on a terminal, tab-separated when piped.
   */
  output?: (typeof OUTPUT_PREFERENCES)[number];
  /** The per-request timeout in seconds when --timeout is not given. */
  timeout?: string;
  /** `true`: the profile's plain http:// base URL to another machine is allowed, as with --insecure-http. */
  insecureHttp?: boolean;
}

/** The values `config set insecure-http` takes. */
export const INSECURE_HTTP_VALUES = ['true', 'false'] as const;

export const OUTPUT_PREFERENCES = ['json', 'table', 'auto'] as const;

/**
 * The profile's preferences, read before a command runs. A config file that cannot be read gives
 * none: the command (or `doctor`) reports the file itself when it needs a setting from it.
 */
export async function readPreferences(flags: ConnectionFlags, env: NodeJS.ProcessEnv, openStore: () => Promise<ConfigStore>): Promise<Preferences> {
  try {
    const profile = (await openStore()).profile(profileName(flags, env).name);
    const output = profile?.output;
    return { output: (OUTPUT_PREFERENCES as readonly (string | undefined)[]).includes(output) ? (output as Preferences['output']) : undefined, timeout: profile?.timeout, insecureHttp: profile?.['insecure-http'] === 'true' };
  } catch {
    return {};
  }
}
