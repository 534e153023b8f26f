import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { profileName } from '../../config/settings.js';
import { KEY_ARG, parseConfigKey } from './keys.js';

export const command = defineCommand({
  name: 'unset',
  summary: 'remove a setting from the profile',
  args: [KEY_ARG],
  exitCodes: LOCAL_EXITS,
  examples: ['agentctl config unset base-url'],
  parse: (input) => ({ key: parseConfigKey(input.arg(0)) }),
  async run({ key }, ctx) {
    const { name } = profileName(ctx.flags, ctx.env);
    const removed = (await ctx.openConfig()).unset(name, key);
    ctx.out.answer({ profile: name, key, removed }, () => (removed ? ctx.out.success(`Removed ${key} from profile "${name}".`) : ctx.out.info(`${key} was not set in profile "${name}".`)));
  },
});
