import { persistentAgents } from '../../api/persistent-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { showAgent } from './show.js';

export const run: CommandRun = async (ctx, [id]) => {
  const agentId = checkUuid(String(id), 'agent id');
  showAgent(ctx, await persistentAgents.get(await ctx.client(), agentId));
};
