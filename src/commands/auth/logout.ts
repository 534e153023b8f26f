import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { profileName } from '../../config/settings.js';

export const command = defineCommand({
  name: 'logout',
  summary: 'remove the stored API key from the profile',
  exitCodes: LOCAL_EXITS,
  examples: ['agentctl auth logout', 'agentctl auth logout --profile prod'],
  parse: () => ({}),
  async run(_options, ctx) {
    const { name } = profileName(ctx.flags, ctx.env);
    const removed = (await ctx.openConfig()).unset(name, 'api-key');
    ctx.out.answer({ profile: name, removed }, () => (removed ? ctx.out.success(`Removed the API key of profile "${name}".`) : ctx.out.info(`Profile "${name}" had no stored API key.`)));
    if (ctx.env.AGENTCTL_API_KEY) ctx.out.warn('AGENTCTL_API_KEY is still set in this environment and will keep being used.');
  },
});
