import type { Task } from '../../api/schemas/task.js';
import { tasks } from '../../api/tasks.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseListOptions, printList } from '../shared/list.js';
import { parseAgentScope } from './body.js';
import { taskColumns } from './columns.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const scope = parseAgentScope(options.agent);
  const list = parseListOptions(options);
  const status = options.status as string | undefined;
  const client = await ctx.client();
  await printList(
    ctx,
    {
      page: (request) => tasks.listPage(client, scope, request),
      all: (request) => tasks.listAll(client, scope, request),
      filter: status ? (task: Task) => task.status === status : undefined,
    },
    list,
    taskColumns(ctx.out.chalk),
  );
};
