import { legacyAgents } from '../../api/legacy-agents.js';
import { LIMITS, checkName } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { agentDetail } from './columns.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const name = checkName(String(options.name), LIMITS.legacyAgentName, '--name');
  const agent = await legacyAgents.create(await ctx.client(), { name });
  ctx.out.record(agent, agentDetail(agent));
};
