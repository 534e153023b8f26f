import { chmodSync } from 'node:fs';
import { dirname } from 'node:path';
import Conf from 'conf';
import { UsageError } from '../errors.js';

export const CONFIG_KEYS = ['base-url', 'api-key'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type Profile = Partial<Record<ConfigKey, string>>;

interface ConfigShape {
  profiles: Record<string, Profile>;
}

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

/**
 * Profiles stored with `conf` under $XDG_CONFIG_HOME/agentctl/config.json. The file holds API keys,
 * so it is written 0600 and its folder 0700.
 */
export class ConfigStore {
  private readonly conf: Conf<ConfigShape>;

  constructor(dir: string) {
    try {
      this.conf = new Conf<ConfigShape>({
        projectName: 'agentctl',
        cwd: dir,
        configFileMode: 0o600,
        accessPropertiesByDotNotation: false,
        defaults: { profiles: {} },
      });
    } catch (error) {
      throw new UsageError(
        `cannot read the config file: ${error instanceof Error ? error.message : String(error)}`,
        'fix the JSON in the file, or delete it to start again (`agentctl config path` shows where it is)',
      );
    }
  }

  get path(): string {
    return this.conf.path;
  }

  profileNames(): string[] {
    return Object.keys(this.conf.get('profiles'));
  }

  profile(name: string): Profile | undefined {
    return this.conf.get('profiles')[name];
  }

  set(profileName: string, key: ConfigKey, value: string): void {
    const profiles = this.conf.get('profiles');
    profiles[profileName] = { ...profiles[profileName], [key]: value };
    this.conf.set('profiles', profiles);
    this.tightenPermissions();
  }

  /** Removes a key; the profile goes too when nothing is left in it. Returns whether anything changed. */
  unset(profileName: string, key: ConfigKey): boolean {
    const profiles = this.conf.get('profiles');
    const profile = profiles[profileName];
    if (!profile || profile[key] === undefined) return false;
    delete profile[key];
    if (Object.keys(profile).length === 0) delete profiles[profileName];
    this.conf.set('profiles', profiles);
    return true;
  }

  private tightenPermissions(): void {
    try {
      chmodSync(this.conf.path, 0o600);
      chmodSync(dirname(this.conf.path), 0o700);
    } catch {
      // Best effort: a read-only or foreign-owned folder keeps its mode; the file mode is set by conf.
    }
  }
}
