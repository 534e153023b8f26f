import { tasks } from '../../api/tasks.js';
import { defineCommand } from '../../cli/define.js';
import { buildTaskBody } from './body.js';
import { taskDetail } from '../../output/task-columns.js';
import { AGENT_OPTION, ID, TASK_FIELD_OPTIONS, TASK_ID_ARG, parseScope, parseTaskFields, parseTaskId } from './options.js';

export const command = defineCommand({
  name: 'replace',
  summary: 'replace a task (PUT)',
  args: [TASK_ID_ARG, { name: '[prompt]', description: 'the prompt (- reads stdin)' }],
  options: [...TASK_FIELD_OPTIONS, { flags: '--credits-cost <decimal>', description: 'credits used, e.g. 0.4' }, AGENT_OPTION],
  examples: [`agentctl tasks replace ${ID} "New prompt" --webhook https://hooks.example/done`],
  parse: (input) => ({ scope: parseScope(input), id: parseTaskId(input), prompt: input.arg(1), fields: parseTaskFields(input) }),
  async run({ scope, id, prompt, fields }, ctx) {
    const body = await buildTaskBody(prompt, fields, 'replace', ctx.io, ctx.redactor);
    const task = await tasks.replace(await ctx.client(), scope, id, body);
    ctx.out.record(task, taskDetail(task, ctx.out.chalk));
  },
});
