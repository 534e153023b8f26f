import { ApiError } from '../../api/errors.js';
import { tasks } from '../../api/tasks.js';
import { defineCommand } from '../../cli/define.js';
import { AGENT_OPTION, ID, TASK_ID_ARG, parseScope, parseTaskId } from './options.js';

export const command = defineCommand({
  name: 'cancel',
  summary: 'cancel a pending or running task',
  args: [TASK_ID_ARG],
  options: [AGENT_OPTION],
  examples: [`agentctl tasks cancel ${ID}`],
  parse: (input) => ({ scope: parseScope(input), taskId: parseTaskId(input) }),
  async run({ scope, taskId }, ctx) {
    const client = await ctx.client();
    let answer: { status: string; message?: string };
    try {
      answer = await tasks.cancel(client, scope, taskId);
    } catch (error) {
      // Cancelling a cancelled task is done already (exit 0, like `gh issue close` on a closed issue);
      // the service answers 409 for any finished task, so its status decides.
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      const task = await tasks.get(client, scope, taskId);
      if (task.status !== 'cancelled') throw error;
      answer = { status: 'cancelled', message: 'Task was already cancelled.' };
    }
    // Piped: a `status<TAB>cancelled` line a script can cut; on a terminal, a sentence.
    if (ctx.out.settings.format === 'plain') ctx.out.record(answer, [{ label: 'status', value: answer.status }]);
    else ctx.out.answer(answer, () => ctx.out.success(`Task ${taskId}: ${answer.message ?? answer.status}`));
  },
});
