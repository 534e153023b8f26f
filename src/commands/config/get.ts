import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { profileName } from '../../config/settings.js';
import { ExitCode, ExitError } from '../../errors.js';
import { KEY_ARG, maskSecret, parseConfigKey } from './keys.js';

export const command = defineCommand({
  name: 'get',
  summary: 'print one setting (an API key is shown masked)',
  args: [KEY_ARG],
  exitCodes: { ...LOCAL_EXITS, 4: 'the setting is not set in the profile' },
  examples: ['agentctl config get base-url', 'agentctl config get base-url --profile prod'],
  parse: (input) => ({ key: parseConfigKey(input.arg(0)) }),
  async run({ key }, ctx) {
    const { name } = profileName(ctx.flags, ctx.env);
    const value = (await ctx.openConfig()).profile(name)?.[key];
    if (value === undefined) throw new ExitError(ExitCode.notFound, `${key} is not set in profile "${name}"`, `set it: agentctl config set ${key} VALUE`);
    const shown = key === 'api-key' ? maskSecret(value) : value;
    ctx.out.answer({ profile: name, key, value: shown }, () => ctx.out.line(shown));
  },
});
