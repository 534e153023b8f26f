import { tasks } from '../../api/tasks.js';
import { defineCommand } from '../../cli/define.js';
import { buildTaskBody } from './body.js';
import { taskDetail } from '../../output/task-columns.js';
import { AGENT_OPTION, ID, TASK_FIELD_OPTIONS, TASK_ID_ARG, parseScope, parseTaskFields, parseTaskId } from './options.js';

export const command = defineCommand({
  name: 'update',
  summary: 'change some fields of a task (PATCH)',
  args: [TASK_ID_ARG],
  options: [
    ...TASK_FIELD_OPTIONS,
    { flags: '--prompt <text>', description: 'new prompt (only while the task is pending)' },
    { flags: '--no-webhook', description: 'remove the webhook' },
    { flags: '--credits-cost <decimal>', description: 'credits used, e.g. 0.4 (up to 9 integer and 3 fractional digits)' },
    AGENT_OPTION,
  ],
  examples: [`agentctl tasks update ${ID} --webhook https://hooks.example/done`, `agentctl tasks update ${ID} --credits-cost 1.250`],
  parse: (input) => ({ scope: parseScope(input), id: parseTaskId(input), prompt: input.string('prompt'), fields: parseTaskFields(input) }),
  async run({ scope, id, prompt, fields }, ctx) {
    const body = await buildTaskBody(prompt, fields, 'update', ctx.io, ctx.redactor);
    const task = await tasks.update(await ctx.client(), scope, id, body);
    ctx.out.record(task, taskDetail(task, ctx.out.chalk));
  },
});
