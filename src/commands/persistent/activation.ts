import { persistentAgents } from '../../api/persistent-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { Context } from '../../cli/context.js';

/** activate / deactivate: the same request shape and the same way of reporting it. */
export async function setActive(ctx: Context, id: unknown, active: boolean): Promise<void> {
  const agentId = checkUuid(String(id), 'agent id');
  const client = await ctx.client();
  const answer = active ? await persistentAgents.activate(client, agentId) : await persistentAgents.deactivate(client, agentId);
  if (ctx.out.machine) return ctx.out.json(answer);
  const state = active ? 'active' : 'paused';
  if (answer.updated === false) ctx.out.info(`Agent ${agentId} was already ${state}; nothing changed.`);
  else ctx.out.success(`Agent ${agentId} is now ${state}.`);
}
