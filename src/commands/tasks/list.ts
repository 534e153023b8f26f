import type { Task } from '../../api/schemas/task.js';
import { tasks } from '../../api/tasks.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseListOptions, printList } from '../shared/list.js';
import { parseAgentScope } from './body.js';
import { taskColumns } from './columns.js';
import { UsageError } from '../../errors.js';
import { parseWatch, watch } from '../shared/watch.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const scope = parseAgentScope(options.agent);
  const list = parseListOptions(options);
  const status = options.status as string | undefined;
  const client = await ctx.client();
  const watchMs = parseWatch(options.watch as string | boolean | undefined);
  if (watchMs !== undefined) {
    if (list.all) throw new UsageError('--watch shows one page; drop --all');
    const keep = (task: Task) => !status || task.status === status;
    const fetch = async () => (await tasks.listPage(client, scope, { page: list.page, pageSize: list.pageSize })).results.filter(keep);
    return watch(ctx, watchMs, fetch, (items) => ctx.out.list(items, taskColumns(ctx.out.chalk)));
  }
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
