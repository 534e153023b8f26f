import type { CommandRun } from '../../cli/lazy.js';
import { profileName } from '../../config/settings.js';
import { parseConfigKey } from './keys.js';

export const run: CommandRun = async (ctx, [rawKey]) => {
  const key = parseConfigKey(rawKey);
  const { name } = profileName(ctx.flags, ctx.env);
  const removed = (await ctx.openConfig()).unset(name, key);
  if (ctx.out.machine) ctx.out.json({ profile: name, key, removed });
  else if (removed) ctx.out.success(`Removed ${key} from profile "${name}".`);
  else ctx.out.info(`${key} was not set in profile "${name}".`);
};
