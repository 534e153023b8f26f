import { persistentAgents } from '../../api/persistent-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentBody } from './body.js';
import { showAgent } from './show.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const agentId = checkUuid(String(id), 'agent id');
  const body = await parseAgentBody(options, 'update', ctx.io.stdin);
  showAgent(ctx, await persistentAgents.update(await ctx.client(), agentId, body));
};
