import { tasks } from '../../api/tasks.js';
import { defineCommand } from '../../cli/define.js';
import { DELETE_NOTES, YES_OPTION, confirmAndDelete } from '../common/confirm-delete.js';
import { AGENT_OPTION, ID, TASK_ID_ARG, parseScope, parseTaskId } from './options.js';

export const command = defineCommand({
  name: 'delete',
  summary: 'delete a task (a running task is not stopped: cancel it first)',
  args: [TASK_ID_ARG],
  options: [YES_OPTION, AGENT_OPTION],
  notes: DELETE_NOTES,
  examples: [`agentctl tasks delete ${ID} --yes`],
  parse: (input) => ({ scope: parseScope(input), id: parseTaskId(input), yes: input.flag('yes') }),
  async run({ scope, id, yes }, ctx) {
    const client = await ctx.client();
    await confirmAndDelete(ctx, id, `task ${id}`, yes, () => tasks.delete(client, scope, id));
  },
});
