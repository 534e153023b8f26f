import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { clearTextHost } from '../../contract/url.js';
import { checkApiKey, parseSecondsFlag } from '../../contract/validate.js';
import { INSECURE_HTTP_VALUES, normaliseBaseUrl, OUTPUT_PREFERENCES, profileName } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { KEY_ARG, parseConfigKey } from './keys.js';

export const command = defineCommand({
  name: 'set',
  summary: 'store a setting in the profile',
  args: [KEY_ARG, { name: '<value>', description: 'the value; - reads it from stdin (use this for api-key)' }],
  exitCodes: LOCAL_EXITS,
  examples: [
    'agentctl config set base-url https://service.example/api/v1 --profile prod',
    'printf %s "$KEY" | agentctl config set api-key - --profile prod',
    'agentctl config set output json      # every command prints JSON, as with --json',
    'agentctl config set timeout 60       # seconds per request when --timeout is not given',
    'agentctl config set insecure-http true --profile lab   # its http:// base URL to another machine takes the key in clear text',
  ],
  parse: (input) => ({ key: parseConfigKey(input.arg(0)), value: input.arg(1) ?? '' }),
  async run({ key, value: given }, ctx) {
    let value = given === '-' ? (await ctx.readStdin()).trim() : given;
    if (value === '') throw new UsageError(`${key} must not be empty`, `to remove it: agentctl config unset ${key}`);
    if (key === 'base-url') value = normaliseBaseUrl(value);
    if (key === 'api-key') value = checkApiKey(value, given === '-' ? 'stdin' : 'the command line');
    if (key === 'output' && !(OUTPUT_PREFERENCES as readonly string[]).includes(value)) {
      throw new UsageError(`output: "${value}" is not one of ${OUTPUT_PREFERENCES.join(', ')}`, 'json prints JSON as --json does; table a table even when piped; auto (the default) a table on a terminal, tab-separated when piped');
    }
    if (key === 'timeout') value = String(parseSecondsFlag(value, 'timeout', 0.001));
    if (key === 'insecure-http' && !(INSECURE_HTTP_VALUES as readonly string[]).includes(value)) {
      throw new UsageError(`insecure-http: "${value}" is not one of ${INSECURE_HTTP_VALUES.join(', ')}`, "true lets this profile's plain http:// base URL to another machine take the key in clear text");
    }
    if (key === 'api-key' && given !== '-') ctx.out.warn('the key was given in argv, where other users and the shell history can see it; next time pipe it: printf %s "$KEY" | agentctl config set api-key -');
    const { name } = profileName(ctx.flags, ctx.env);
    const store = await ctx.openConfig();
    store.set(name, key, value);
    if (key === 'base-url' && clearTextHost(new URL(value)) && store.profile(name)?.['insecure-http'] !== 'true') {
      ctx.out.warn(`${value} would take the key in clear text: commands refuse it unless --insecure-http, or \`agentctl config set insecure-http true${name === 'default' ? '' : ` --profile ${name}`}\``);
    }
    ctx.out.answer({ profile: name, key, saved: true }, () => ctx.out.success(`Saved ${key} in profile "${name}".`));
  },
});
