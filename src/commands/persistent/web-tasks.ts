import { persistentAgents, type WebTasksQuery } from '../../api/persistent-agents.js';
import type { Task } from '../../api/schemas/task.js';
import { checkUuid, parseIntegerFlag } from '../../contract/validate.js';
import { defineCommand } from '../../cli/define.js';
import { TASK_STATUSES } from '../../contract/enums.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { taskColumns } from '../../output/task-columns.js';

export const command = defineCommand({
  name: 'web-tasks',
  summary: 'the browser tasks the agent started, newest first',
  args: [AGENT_ID_ARG],
  options: [
    { flags: '--status <status>', description: 'keep only tasks in this status', choices: TASK_STATUSES },
    { flags: '--limit <n>', description: 'at most this many, 1..200 (service default 50)' },
  ],
  examples: [`agentctl persistent web-tasks ${ID}`, `agentctl persistent web-tasks ${ID} --status in_progress --json | jq length`],
  parse(input) {
    const query: WebTasksQuery = {};
    const status = input.string('status');
    const limit = input.string('limit');
    if (status !== undefined) query.status = status;
    if (limit !== undefined) query.limit = parseIntegerFlag(limit, '--limit', 1, 200);
    return { agentId: checkUuid(input.arg(0) ?? '', 'agent id'), query };
  },
  run: async ({ agentId, query }, ctx) => {
    const answer = await persistentAgents.webTasks(await ctx.client(), agentId, query);
    // The service filters web tasks itself; filtering again keeps the promise if one does not.
    const results = query.status ? answer.results.filter((task) => task.status === query.status) : answer.results;
    ctx.out.list(results as unknown as Task[], taskColumns(ctx.out.chalk));
  },
});
