import { persistentAgents } from '../../api/persistent-agents.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentBody } from './body.js';
import { showAgent } from './show.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const body = await parseAgentBody(options, 'create', ctx.io.stdin);
  showAgent(ctx, await persistentAgents.create(await ctx.client(), body));
};
