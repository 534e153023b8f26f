import type { CommandRun } from '../../cli/lazy.js';
import { profileName } from '../../config/settings.js';
import { shownProfile } from './keys.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const store = await ctx.openConfig();
  const names = options.allProfiles ? store.profileNames() : [profileName(ctx.flags, ctx.env).name];
  const rows = names.flatMap((name) =>
    Object.entries(shownProfile(store.profile(name) ?? {})).map(([key, value]) => ({ profile: name, key, value })),
  );
  if (ctx.out.settings.format === 'json') {
    ctx.out.json(Object.fromEntries(names.map((name) => [name, shownProfile(store.profile(name) ?? {})])));
    return;
  }
  ctx.out.list(rows, [{ key: 'profile' }, { key: 'key' }, { key: 'value' }]);
};
