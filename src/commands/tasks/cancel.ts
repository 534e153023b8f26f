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
    let already = false;
    try {
      answer = await tasks.cancel(client, scope, taskId);
    } catch (error) {
      // Cancelling a cancelled task is done already (exit 0, like `gh issue close` on a closed issue);
      // the service answers 409 for any finished task, so its status decides.
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      const task = await tasks.get(client, scope, taskId);
      if (task.status !== 'cancelled') throw error;
      answer = { status: 'cancelled', message: 'Task was already cancelled.' };
      already = true;
    }
    // Piped: a `status<TAB>cancelled` line a script can cut (the same either way), and on stderr
    // whether it was already; on a terminal, a sentence; JSON: the message says which.
    if (ctx.out.settings.format === 'plain') {
      ctx.out.record(answer, [{ label: 'status', value: answer.status }]);
      if (already) ctx.out.info(`Task ${taskId} was already cancelled.`);
    } else ctx.out.answer(answer, () => ctx.out.success(`Task ${taskId}: ${answer.message ?? answer.status}`));
  },
});
