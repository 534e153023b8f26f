import { defineCommand } from '../../cli/define.js';
import { ping } from './ping.js';

export const command = defineCommand({
  name: 'status',
  summary: 'show which deployment and key are in use, and check them',
  examples: ['agentctl auth status', 'agentctl auth status --json | jq .user'],
  parse: () => ({}),
  async run(_options, ctx) {
    const settings = await ctx.settings();
    const user = await ping(await ctx.client());
    const keySource = settings.apiKey ? settings.apiKeySource : 'emulator default';
    if (ctx.out.machine) {
      ctx.out.json({ profile: settings.profile, base_url: settings.baseUrl, base_url_source: settings.baseUrlSource, api_key_source: keySource, user: user ?? null, ok: true });
      return;
    }
    ctx.out.record({}, [
      { label: 'profile', value: settings.profile },
      { label: 'base_url', value: `${settings.baseUrl} (${settings.baseUrlSource})` },
      { label: 'api_key', value: `set (${keySource})` },
      { label: 'user', value: user ?? '' },
      { label: 'status', value: 'ok', paint: (text) => ctx.out.chalk.green(text) },
    ]);
  },
});
