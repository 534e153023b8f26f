import { defineCommand } from '../../cli/define.js';

// gh's `auth token`: the one command whose point is to print the key, for a script that hands it to
// another tool. It prints only when asked, only on stdout, and nothing else there.
export const command = defineCommand({
  name: 'token',
  summary: "print the API key in use (the active profile's, or --api-key-file / AGENTCTL_API_KEY) on stdout",
  notes:
    'This prints a secret: the key, alone on one line of stdout, whether stdout is a terminal or not\n' +
    '(as `gh auth token` does). Pipe it straight into what needs it rather than onto the screen, a log or\n' +
    "a shell variable that `set -x` echoes. Nothing else prints the key: auth status and doctor say only\n" +
    'where it comes from. No request is sent. Exit 3 when no key is configured.',
  exitCodes: { 0: '', 2: '', 3: 'no API key is configured' },
  examples: ['agentctl auth token | other-tool --api-key-stdin', 'agentctl auth token --profile prod | wc -c'],
  parse: () => ({}),
  async run(_options, ctx) {
    const settings = await ctx.settings();
    if (!settings.apiKey) {
      const { AuthMissingError } = await import('../../cli/auth-missing.js');
      throw new AuthMissingError(settings.profile, settings.baseUrl);
    }
    ctx.io.stdout.write(`${settings.apiKey}\n`);
  },
});
