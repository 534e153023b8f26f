import type { CommandRun } from '../../cli/lazy.js';
import { profileName } from '../../config/settings.js';

export const run: CommandRun = async (ctx) => {
  const { name } = profileName(ctx.flags, ctx.env);
  const store = await ctx.openConfig();
  const removed = store.unset(name, 'api-key');
  if (ctx.out.machine) ctx.out.json({ profile: name, removed });
  else if (removed) ctx.out.success(`Removed the API key of profile "${name}".`);
  else ctx.out.info(`Profile "${name}" had no stored API key.`);
  if (ctx.env.AGENTCTL_API_KEY) ctx.out.warn('AGENTCTL_API_KEY is still set in this environment and will keep being used.');
};
