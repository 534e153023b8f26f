import { tasks } from '../../api/tasks.js';
import { defineCommand } from '../../cli/define.js';
import { confirmAndDelete } from '../common/confirm-delete.js';
import { AGENT_OPTION, ID, TASK_ID_ARG, parseScope, parseTaskId } from './options.js';

export const command = defineCommand({
  name: 'delete',
  summary: 'delete a task (a running task is not stopped: cancel it first)',
  args: [TASK_ID_ARG],
  options: [{ flags: '-y, --yes', description: 'do not ask for confirmation (required without a terminal)' }, AGENT_OPTION],
  examples: [`agentctl tasks delete ${ID} --yes`],
  parse: (input) => ({ scope: parseScope(input), id: parseTaskId(input), yes: input.flag('yes') }),
  async run({ scope, id, yes }, ctx) {
    const client = await ctx.client();
    await confirmAndDelete(ctx, id, `task ${id}`, yes, () => tasks.delete(client, scope, id));
  },
});
