import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';

export const command = defineCommand({
  name: 'path',
  summary: 'print where the config file lives (works even when the file is broken)',
  exitCodes: LOCAL_EXITS,
  examples: ['agentctl config path', '"${EDITOR:-vi}" "$(agentctl config path)"'],
  parse: () => ({}),
  async run(_options, ctx) {
    const path = (await ctx.openConfig()).path;
    ctx.out.answer({ path }, () => ctx.out.line(path));
  },
});
