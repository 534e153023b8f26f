import { describe, expect, it } from 'vitest';
import { DEFAULT_BASE_URL, normaliseBaseUrl, resolveSettings } from '../../src/config/settings.js';
import type { ConfigStore, Profile } from '../../src/config/store.js';

const noStdin = async (): Promise<string> => '';

function storeWith(profiles: Record<string, Profile>): () => Promise<ConfigStore> {
  return async () =>
    ({
      profile: (name: string) => profiles[name],
      profileNames: () => Object.keys(profiles),
    }) as unknown as ConfigStore;
}

describe('settings precedence: flag > environment > profile > default', () => {
  const profiles = { default: { 'base-url': 'http://profile/api/v1', 'api-key': 'profile-key' }, prod: { 'base-url': 'https://prod/api/v1' } };

  it('uses the built-in default with nothing configured', async () => {
    const settings = await resolveSettings({}, {}, storeWith({}), noStdin);
    expect(settings).toMatchObject({ baseUrl: DEFAULT_BASE_URL, baseUrlSource: 'default', apiKey: undefined, profile: 'default' });
  });

  it('prefers the profile to the default', async () => {
    const settings = await resolveSettings({}, {}, storeWith(profiles), noStdin);
    expect(settings).toMatchObject({ baseUrl: 'http://profile/api/v1', apiKey: 'profile-key', apiKeySource: 'profile' });
  });

  it('prefers the environment to the profile', async () => {
    const settings = await resolveSettings({}, { AGENTCTL_BASE_URL: 'http://env/api/v1/', AGENTCTL_API_KEY: 'env-key' }, storeWith(profiles), noStdin);
    expect(settings).toMatchObject({ baseUrl: 'http://env/api/v1', baseUrlSource: 'env', apiKey: 'env-key', apiKeySource: 'env' });
  });

  it('prefers flags to the environment', async () => {
    const settings = await resolveSettings(
      { baseUrl: 'http://flag/api/v1', apiKey: 'flag-key' },
      { AGENTCTL_BASE_URL: 'http://env/api/v1', AGENTCTL_API_KEY: 'env-key' },
      storeWith(profiles),
      noStdin,
    );
    expect(settings).toMatchObject({ baseUrl: 'http://flag/api/v1', baseUrlSource: 'flag', apiKey: 'flag-key' });
  });

  it('does not open the config file when flags and environment answer everything', async () => {
    const settings = await resolveSettings({ baseUrl: 'http://flag/api/v1' }, { AGENTCTL_API_KEY: 'k' }, () => {
      throw new Error('config opened');
    }, noStdin);
    expect(settings.apiKey).toBe('k');
  });

  it('selects a profile by flag or AGENTCTL_PROFILE and refuses an unknown one', async () => {
    expect((await resolveSettings({}, { AGENTCTL_PROFILE: 'prod' }, storeWith(profiles), noStdin)).baseUrl).toBe('https://prod/api/v1');
    await expect(resolveSettings({ profile: 'nope' }, {}, storeWith(profiles), noStdin)).rejects.toThrow('profile "nope" is not in the config file');
  });

  it('checks base URLs', () => {
    expect(normaliseBaseUrl('http://h:1/api/v1///')).toBe('http://h:1/api/v1');
    expect(() => normaliseBaseUrl('ftp://h')).toThrow('must start with http:// or https://');
    expect(() => normaliseBaseUrl('nope')).toThrow('not a valid URL');
  });
});
