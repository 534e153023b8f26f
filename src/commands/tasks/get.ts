import { tasks } from '../../api/tasks.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseAgentScope } from './body.js';
import { taskDetail } from './columns.js';
import type { Task } from '../../api/schemas/task.js';
import { parseWatch, watch } from '../shared/watch.js';

export const run: CommandRun = async (ctx, [id], options) => {
  const scope = parseAgentScope(options.agent);
  const taskId = checkUuid(String(id), 'task id');
  const watchMs = parseWatch(options.watch as string | boolean | undefined);
  const client = await ctx.client();
  const fetch = () => tasks.get(client, scope, taskId);
  const show = (task: Task) => ctx.out.record(task, taskDetail(task, ctx.out.chalk));
  if (watchMs !== undefined) return watch(ctx, watchMs, fetch, show);
  show(await fetch());
};
