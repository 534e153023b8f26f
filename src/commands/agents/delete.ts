import { legacyAgents } from '../../api/legacy-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { confirmAndDelete } from '../shared/confirm-delete.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const agentId = checkUuid(String(id), 'agent id');
  const client = await ctx.client();
  await confirmAndDelete(ctx, agentId, `agent ${agentId} (with its tasks)`, Boolean(options.yes), () => legacyAgents.delete(client, agentId));
};
