import type { PersistentAgent } from '../../api/schemas/persistent-agent.js';
import type { Context } from '../../cli/context.js';
import { agentDetail } from './columns.js';
import { summariseSchedule } from './schedule-summary.js';

/** Prints an agent record: JSON as returned, or the grouped detail view with its next runs. */
export function showAgent(ctx: Context, agent: PersistentAgent): void {
  const schedule = ctx.out.machine ? undefined : summariseSchedule(agent.schedule);
  ctx.out.record(agent, agentDetail(agent, schedule, ctx.out.chalk));
}
