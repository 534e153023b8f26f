import type { ArgumentSpec } from '../../cli/define.js';
import { UsageError } from '../../errors.js';
import { CONFIG_KEYS, isConfigKey, type ConfigKey, type Profile } from '../../config/store.js';

export const KEY_ARG: ArgumentSpec = { name: '<key>', description: 'base-url, api-key, output (json|table|auto), timeout (seconds per request) or insecure-http (true|false)', choices: CONFIG_KEYS };

export function parseConfigKey(key: unknown): ConfigKey {
  const text = String(key);
  if (!isConfigKey(text)) throw new UsageError(`unknown setting "${text}"`, `settings: ${CONFIG_KEYS.join(', ')}`);
  return text;
}

/** API keys are never printed whole: enough to recognise one, not to use it. */
export function maskSecret(value: string): string {
  return value.length <= 8 ? '****' : `****${value.slice(-4)}`;
}

export function shownProfile(profile: Profile): Profile {
  return profile['api-key'] === undefined ? { ...profile } : { ...profile, 'api-key': maskSecret(profile['api-key']) };
}
