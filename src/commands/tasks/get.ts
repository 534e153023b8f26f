import type { Task } from '../../api/schemas/task.js';
import { tasks } from '../../api/tasks.js';
import { defineCommand } from '../../cli/define.js';
import { WATCH_OPTION, parseWatch, watch } from '../common/watch.js';
import { taskDetail } from '../../output/task-columns.js';
import { AGENT_OPTION, ID, TASK_ID_ARG, parseScope, parseTaskId } from './options.js';

export const command = defineCommand({
  name: 'get',
  summary: 'show one task',
  args: [TASK_ID_ARG],
  options: [WATCH_OPTION, AGENT_OPTION],
  examples: [`agentctl tasks get ${ID}`, `agentctl tasks get ${ID} --json | jq -r .status`, `agentctl tasks get ${ID} --watch 1`],
  parse: (input) => ({ scope: parseScope(input), id: parseTaskId(input), watchMs: parseWatch(input.value('watch')) }),
  async run({ scope, id, watchMs }, ctx) {
    const client = await ctx.client();
    const fetch = () => tasks.get(client, scope, id);
    const show = (task: Task) => ctx.out.record(task, taskDetail(task, ctx.out.chalk));
    if (watchMs !== undefined) return watch(ctx, watchMs, fetch, show);
    show(await fetch());
  },
});
