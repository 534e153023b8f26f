import { legacyAgents } from '../../api/legacy-agents.js';
import { LIMITS, checkName, checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { agentDetail } from './columns.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const agentId = checkUuid(String(id), 'agent id');
  const name = checkName(String(options.name), LIMITS.legacyAgentName, '--name');
  const agent = await legacyAgents.replace(await ctx.client(), agentId, { name });
  ctx.out.record(agent, agentDetail(agent));
};
