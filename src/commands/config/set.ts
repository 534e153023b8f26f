import { defineCommand } from '../../cli/define.js';
import { checkApiKey } from '../../contract/validate.js';
import { normaliseBaseUrl, profileName } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { KEY_ARG, parseConfigKey } from './keys.js';

export const command = defineCommand({
  name: 'set',
  summary: 'store a setting in the profile',
  args: [KEY_ARG, { name: '<value>', description: 'the value; - reads it from stdin (use this for api-key)' }],
  examples: ['agentctl config set base-url https://service.example/api/v1 --profile prod', 'printf %s "$KEY" | agentctl config set api-key - --profile prod'],
  parse: (input) => ({ key: parseConfigKey(input.arg(0)), value: input.arg(1) ?? '' }),
  async run({ key, value: given }, ctx) {
    let value = given === '-' ? (await ctx.readStdin()).trim() : given;
    if (value === '') throw new UsageError(`${key} must not be empty`, `to remove it: agentctl config unset ${key}`);
    if (key === 'base-url') value = normaliseBaseUrl(value);
    if (key === 'api-key') value = checkApiKey(value, given === '-' ? 'stdin' : 'the command line');
    if (key === 'api-key' && given !== '-') ctx.out.warn('the key was given in argv, where other users and the shell history can see it; next time pipe it: printf %s "$KEY" | agentctl config set api-key -');
    const { name } = profileName(ctx.flags, ctx.env);
    (await ctx.openConfig()).set(name, key, value);
    ctx.out.answer({ profile: name, key, saved: true }, () => ctx.out.success(`Saved ${key} in profile "${name}".`));
  },
});
