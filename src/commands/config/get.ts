import { ExitError } from '../../errors.js';
import { ExitCode } from '../../errors.js';
import type { CommandRun } from '../../cli/lazy.js';
import { profileName } from '../../config/settings.js';
import { maskSecret, parseConfigKey } from './keys.js';

export const run: CommandRun = async (ctx, [rawKey]) => {
  const key = parseConfigKey(rawKey);
  const { name } = profileName(ctx.flags, ctx.env);
  const value = (await ctx.openConfig()).profile(name)?.[key];
  if (value === undefined) {
    ctx.out.error(`${key} is not set in profile "${name}"`);
    throw new ExitError(ExitCode.notFound);
  }
  const shown = key === 'api-key' ? maskSecret(value) : value;
  if (ctx.out.machine) ctx.out.json({ profile: name, key, value: shown });
  else ctx.out.line(shown);
};
