import { tasks } from '../../api/tasks.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { ExitCode, ExitError } from '../../errors.js';
import { AGENT_OPTION, ID, TASK_ID_ARG, parseScope, parseTaskId } from './options.js';
import { exitCodeForStatus, printResult, resumeCommand } from './outcome.js';

/** Prints the result; the exit code says what it is: 0 completed, 5 failed, 6 cancelled, 9 not finished, 10 wrong shape (--check-schema). */
export const command = defineCommand({
  name: 'result',
  summary: "print a task's result",
  args: [TASK_ID_ARG],
  options: [
    { flags: '--check-schema', description: "check the result against the task's output_schema locally; exit 10 when it does not match" },
    AGENT_OPTION,
  ],
  notes:
    '--check-schema validates the result with a JSON Schema validator (Ajv: draft-07, or 2020-12 when the\n' +
    "schema's $schema says so; formats such as date-time are checked). A match prints the result as usual;\n" +
    'a mismatch prints nothing on stdout, lists where it differs on stderr and exits 10. A task that did\n' +
    'not complete exits with its code (5 failed, 6 cancelled, 9 still running); no output_schema exits 2.',
  exitCodes: {
    ...SERVICE_EXITS,
    2: 'usage or input error, found before any request (--check-schema: the task has no output_schema)',
    5: 'the task ended failed',
    6: 'the task ended cancelled',
    9: '',
    10: "--check-schema: the result does not match the task's output_schema (nothing on stdout)",
  },
  examples: [
    `agentctl tasks result ${ID}`,
    `agentctl tasks result ${ID} --json | jq .result`,
    `agentctl tasks result ${ID} --check-schema --json | jq .result > data.json   # exit 10: wrong shape`,
  ],
  parse: (input) => ({ scope: parseScope(input), taskId: parseTaskId(input), checkSchema: input.flag('checkSchema') }),
  async run({ scope, taskId, checkSchema }, ctx) {
    const result = await tasks.result(await ctx.client(), scope, taskId);
    if (result.status === 'pending' || result.status === 'in_progress') {
      if (ctx.out.machine) ctx.out.json(result);
      throw new ExitError(ExitCode.notFinished, `task ${taskId} is still ${result.status}: no result yet`, `wait for it: ${resumeCommand(taskId, scope)}`);
    }
    if (checkSchema && result.status === 'completed') return (await import('./result-check.js')).checkedResult(ctx, scope, result);
    printResult(ctx, result);
    return exitCodeForStatus(result.status);
  },
});
