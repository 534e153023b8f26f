import { persistentAgents } from '../../api/persistent-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { Context } from '../../cli/context.js';

/** activate / deactivate: the same request shape and the same way of reporting it. */
export async function setActive(ctx: Context, id: unknown, active: boolean): Promise<void> {
  const agentId = checkUuid(String(id), 'agent id');
  const client = await ctx.client();
  const answer = active ? await persistentAgents.activate(client, agentId) : await persistentAgents.deactivate(client, agentId);
  const state = active ? 'active' : 'paused';
  ctx.out.answer(answer, () =>
    answer.updated === false ? ctx.out.info(`Agent ${agentId} was already ${state}; nothing changed.`) : ctx.out.success(`Agent ${agentId} is now ${state}.`),
  );
}
