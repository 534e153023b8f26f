import type { Task } from '../../api/schemas/task.js';
import { tasks } from '../../api/tasks.js';
import type { CommandRun } from '../../cli/lazy.js';
import type { PageRequest } from '../../api/pagination.js';
import { parseListOptions, printList, readPage } from '../shared/list.js';
import { parseAgentScope } from './body.js';
import { taskColumns } from './columns.js';
import { UsageError } from '../../errors.js';
import { parseWatch, watch } from '../shared/watch.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const scope = parseAgentScope(options.agent);
  const list = parseListOptions(options);
  const status = options.status as string | undefined;
  const client = await ctx.client();
  const source = {
    page: (request: PageRequest) => tasks.listPage(client, scope, request),
    all: (request: PageRequest) => tasks.listAll(client, scope, request),
    filter: status ? (task: Task) => task.status === status : undefined,
  };
  const watchMs = parseWatch(options.watch as string | boolean | undefined);
  if (watchMs !== undefined) {
    if (list.all) throw new UsageError('--watch shows one page; drop --all');
    const fetch = async () => (await readPage(source, list)).items;
    return watch(ctx, watchMs, fetch, (items) => ctx.out.list(items, taskColumns(ctx.out.chalk)));
  }
  await printList(ctx, source, list, taskColumns(ctx.out.chalk));
};
