import { legacyAgents } from '../../api/legacy-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { agentDetail } from './columns.js';

export const run: CommandRun = async (ctx, [id]) => {
  const agentId = checkUuid(String(id), 'agent id');
  const agent = await legacyAgents.get(await ctx.client(), agentId);
  ctx.out.record(agent, agentDetail(agent));
};
