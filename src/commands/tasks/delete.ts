import { tasks } from '../../api/tasks.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { confirmAndDelete } from '../shared/confirm-delete.js';
import { parseAgentScope } from './body.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  const client = await ctx.client();
  await confirmAndDelete(ctx, taskId, `task ${taskId}`, Boolean(options.yes), () => tasks.delete(client, scope, taskId));
};
