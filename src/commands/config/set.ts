import { UsageError } from '../../errors.js';
import type { CommandRun } from '../../cli/lazy.js';
import { normaliseBaseUrl, profileName } from '../../config/settings.js';
import { parseConfigKey } from './keys.js';

export const run: CommandRun = async (ctx, [rawKey, rawValue]) => {
  const key = parseConfigKey(rawKey);
  let value = String(rawValue);
  if (value === '-') value = (await ctx.readStdin()).trim();
  if (value === '') throw new UsageError(`${key} must not be empty`, `to remove it: agentctl config unset ${key}`);
  if (key === 'base-url') value = normaliseBaseUrl(value);
  if (key === 'api-key' && /\s/.test(value)) throw new UsageError('the API key must be a single line with no spaces');
  const { name } = profileName(ctx.flags, ctx.env);
  const store = await ctx.openConfig();
  store.set(name, key, value);
  if (ctx.out.machine) ctx.out.json({ profile: name, key, saved: true });
  else ctx.out.success(`Saved ${key} in profile "${name}".`);
};
