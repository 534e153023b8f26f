import type { TaskResult } from '../../api/schemas/task.js';
import { tasks, type TaskScope } from '../../api/tasks.js';
import type { Context } from '../../cli/context.js';
import { ExitCode, ExitError, UsageError } from '../../errors.js';
import { checkAgainstSchema, resultValue } from './check-schema.js';
import { printResult } from './outcome.js';

/**
 * `tasks result ID --check-schema` for a completed task: prints the result only when it matches the
 * task's output_schema; otherwise says where it does not on stderr and exits 10, so nothing
 * downstream reads a bad shape.
 */
export async function checkedResult(ctx: Context, scope: TaskScope, result: TaskResult): Promise<number> {
  const id = String(result.id ?? '');
  const task = await tasks.get(await ctx.client(), scope, id);
  const schema = task.output_schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UsageError(`task ${id} has no output_schema to check against`, 'drop --check-schema, or create the task with --output-schema');
  }
  let check;
  try {
    check = await checkAgainstSchema(resultValue(result.result, schema as Record<string, unknown>), schema as Record<string, unknown>);
  } catch (error) {
    throw new ExitError(ExitCode.serviceError, `the task's output_schema is not a usable JSON Schema: ${(error as Error).message}`);
  }
  if (!check.valid) {
    ctx.out.error(`The result of task ${id} does not match its output_schema:\n${check.problems.map((line) => `  ${line}`).join('\n')}`);
    return ExitCode.schemaMismatch;
  }
  printResult(ctx, result);
  ctx.out.success('The result matches the output schema.');
  return ExitCode.ok;
}
