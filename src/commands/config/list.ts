import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { profileName } from '../../config/settings.js';
import { shownProfile } from './keys.js';

export const command = defineCommand({
  name: 'list',
  summary: 'show the settings of the profile (or of every profile with --all-profiles)',
  options: [{ flags: '--all-profiles', description: 'every profile' }],
  exitCodes: LOCAL_EXITS,
  examples: ['agentctl config list', 'agentctl config list --all-profiles --json'],
  parse: (input) => ({ allProfiles: input.flag('allProfiles') }),
  async run({ allProfiles }, ctx) {
    const store = await ctx.openConfig();
    const names = allProfiles ? store.profileNames() : [profileName(ctx.flags, ctx.env).name];
    if (ctx.out.settings.format === 'json') {
      ctx.out.json(Object.fromEntries(names.map((name) => [name, shownProfile(store.profile(name) ?? {})])));
      return;
    }
    const rows = names.flatMap((name) => Object.entries(shownProfile(store.profile(name) ?? {})).map(([key, value]) => ({ profile: name, key, value })));
    ctx.out.list(rows, [{ key: 'profile' }, { key: 'key' }, { key: 'value' }]);
  },
});
