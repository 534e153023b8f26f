import { legacyAgents } from '../../api/legacy-agents.js';
import { LIMITS, checkName, checkUuid } from '../../contract/validate.js';
import { UsageError } from '../../errors.js';
import type { CommandRun } from '../../cli/lazy.js';
import { agentDetail } from './columns.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const agentId = checkUuid(String(id), 'agent id');
  if (options.name === undefined) throw new UsageError('nothing to update', 'give --name NAME');
  const name = checkName(String(options.name), LIMITS.legacyAgentName, '--name');
  const agent = await legacyAgents.update(await ctx.client(), agentId, { name });
  ctx.out.record(agent, agentDetail(agent));
};
