import type { Task } from '../../api/schemas/task.js';
import { tasks } from '../../api/tasks.js';
import type { PageRequest } from '../../api/pagination.js';
import { defineCommand } from '../../cli/define.js';
import { TASK_STATUSES } from '../../contract/enums.js';
import { UsageError } from '../../errors.js';
import { FILTERED_PAGES } from '../../core/list-page.js';
import { LIST_OPTIONS, parseListOptions, printList, readPage } from '../common/list.js';
import { WATCH_OPTION, parseWatch, watch } from '../common/watch.js';
import { taskColumns } from '../../output/task-columns.js';
import { AGENT_OPTION, parseScope } from './options.js';

export const command = defineCommand({
  name: 'list',
  summary: 'list tasks, newest first',
  options: [
    {
      flags: '--status <status>',
      description: `keep only tasks in this status (filtered by agentctl: pages are read until --page-size tasks match, the list ends, or ${FILTERED_PAGES} pages were read)`,
      choices: TASK_STATUSES,
    },
    WATCH_OPTION,
    ...LIST_OPTIONS,
    AGENT_OPTION,
  ],
  examples: ['agentctl tasks list', 'agentctl tasks list --status failed --all --jsonl | jq -r .id', 'agentctl tasks list --status in_progress --watch 5'],
  parse(input) {
    const scope = parseScope(input);
    const list = parseListOptions(input);
    const watchMs = parseWatch(input.value('watch'));
    if (watchMs !== undefined && list.all) throw new UsageError('--watch shows one page; drop --all');
    return { scope, list, status: input.string('status'), watchMs };
  },
  async run({ scope, list, status, watchMs }, ctx) {
    const client = await ctx.client();
    const source = {
      page: (request: PageRequest) => tasks.listPage(client, scope, request),
      all: (request: PageRequest) => tasks.listAll(client, scope, request),
      filter: status ? (task: Task) => task.status === status : undefined,
    };
    if (watchMs !== undefined) {
      const fetch = async () => (await readPage(source, { ...list, signal: ctx.signal })).items;
      return watch(ctx, watchMs, fetch, (items) => ctx.out.list(items, taskColumns(ctx.out.chalk)));
    }
    await printList(ctx, source, list, taskColumns(ctx.out.chalk));
  },
});
