// tasks_cancel: one task, a list of them, or every task in a status, so "cancel everything pending"
// is one call (and one confirmation) rather than one per task.
import * as z from 'zod';
import * as mini from 'zod/mini';
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { CancelResponseSchema, type CancelResponse, type Task } from '../../api/schemas/task.js';
import { tasks, type TaskScope } from '../../api/tasks.js';
import { oneLine } from '../../contract/text.js';
import { TASK_STATUSES } from '../../contract/enums.js';
import { InputError } from '../../errors.js';
import { defineTool, uuid, type ToolAnswer, type ToolCall } from '../tool.js';
import { knownStatus, serviceId } from '../voice.js';
import { agentScope, scopeOf, scoped } from './common.js';

/** The most tasks one call cancels: a bound on its requests and on what one confirmation covers. */
export const MAX_BULK_CANCEL = 100;
/** Cancels sent at once in a bulk cancel. */
const CONCURRENCY = 4;

const STATUS_FILTERS = ['pending', 'in_progress', 'unfinished'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

const outcomeSchema = z.object({
  id: z.string(),
  outcome: z.enum(['cancelled', 'already_ended', 'failed']),
  status: z.string().optional(),
  error: z.string().optional(),
});
type Outcome = z.infer<typeof outcomeSchema>;

const bulkSchema = z.object({
  matched: z.number(),
  cancelled: z.number(),
  already_ended: z.number(),
  failed: z.number(),
  declined: z.boolean().optional(),
  more: z.boolean().optional(),
  results: z.array(outcomeSchema),
});

/** Cancels one task; a task that has already ended (409) is no failure: there was nothing left to do. */
async function cancelOne(client: ApiClient, scope: TaskScope, id: string): Promise<Outcome & { answer?: CancelResponse }> {
  try {
    const answer = await tasks.cancel(client, scope, id);
    return { id, outcome: 'cancelled', status: answer.status, answer };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    const task = await tasks.get(client, scope, id);
    return { id, outcome: 'already_ended', status: task.status };
  }
}

/** The tasks in `status`, newest first: at most MAX_BULK_CANCEL, and whether there are more. */
async function matching(client: ApiClient, scope: TaskScope, status: StatusFilter, signal: AbortSignal): Promise<{ ids: string[]; more: boolean }> {
  const keep = (task: Task) => (status === 'unfinished' ? task.status === 'pending' || task.status === 'in_progress' : task.status === status);
  const ids: string[] = [];
  for await (const page of tasks.listAll(client, scope, { signal })) {
    // Each becomes a URL's path segment and our words: a UUID, or the call stops before any cancel.
    for (const task of page) if (keep(task)) ids.push(serviceId(task.id, 'task'));
    if (ids.length > MAX_BULK_CANCEL) return { ids: ids.slice(0, MAX_BULK_CANCEL), more: true };
  }
  return { ids, more: false };
}

async function cancelMany(call: ToolCall, scope: TaskScope, ids: string[], more: boolean, what: string): Promise<ToolAnswer> {
  const empty = { matched: ids.length, cancelled: 0, already_ended: 0, failed: 0, results: [] as Outcome[] };
  if (ids.length === 0) return { data: empty, summary: `No ${what} to cancel; nothing changed.` };
  const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '');
  const asked = await call.confirm(`Cancel ${ids.length} tasks (${what}): ${shown}? A cancelled task cannot be resumed.`);
  if (asked === 'declined') return { data: { ...empty, declined: true }, summary: `The user declined: none of the ${ids.length} ${what} was cancelled.` };
  const client = await call.client();
  const results: Outcome[] = [];
  for (let start = 0; start < ids.length && !call.signal.aborted; start += CONCURRENCY) {
    const chunk = ids.slice(start, start + CONCURRENCY);
    results.push(
      ...(await Promise.all(
        chunk.map((id) =>
          cancelOne(client, scope, id).then(
            ({ answer: _, ...outcome }) => outcome,
            (error: unknown): Outcome => ({ id, outcome: 'failed', error: oneLine(error instanceof Error ? error.message : String(error)) }),
          ),
        ),
      )),
    );
    await call.progress(results.length, ids.length, `${results.length} of ${ids.length} tasks done`);
  }
  const count = (outcome: Outcome['outcome']) => results.filter((result) => result.outcome === outcome).length;
  const data = { matched: ids.length, cancelled: count('cancelled'), already_ended: count('already_ended'), failed: count('failed'), ...(more ? { more: true } : {}), results };
  const rest = more ? ` More ${what} remain: call ${call.names.offered('tasks_cancel') ?? 'it'} again.` : '';
  return {
    data,
    summary: `Cancelled ${data.cancelled} of ${ids.length} ${what} (${data.already_ended} had already ended, ${data.failed} failed; a line per task follows).${rest}`,
    quoted: results.map((result) => `${result.id}  ${result.outcome}${result.status ? `  ${result.status}` : ''}${result.error ? `  ${result.error}` : ''}`),
  };
}

export const tasksCancel = defineTool({
  name: 'tasks_cancel',
  title: 'Cancel tasks',
  description:
    `Stop a pending or running task (id), several (ids) or all in a status (status), at most ${MAX_BULK_CANCEL}. ` +
    'Several: one confirmation where the client can ask, a line per task. A task already ended is left as is (already_ended).',
  kind: 'destructive',
  idempotent: true,
  toolset: 'tasks',
  output: z.union([mini.extend(CancelResponseSchema, { id: mini.optional(mini.string()), already_ended: mini.optional(mini.boolean()) }), bulkSchema]),
  findWith: 'tasks_list',
  input: z.strictObject({
    id: uuid('the task').optional(),
    ids: z.array(uuid('a task')).min(1).max(MAX_BULK_CANCEL).optional().describe('several tasks'),
    status: z.enum(STATUS_FILTERS).optional().describe('all tasks in it; unfinished: pending or in_progress'),
    agent_id: agentScope,
  }),
  run: scoped(async ({ id, ids, status, agent_id }, call) => {
    const scope = scopeOf(agent_id);
    if ([id, ids, status].filter((given) => given !== undefined).length !== 1) throw new InputError('(arguments)', 'give exactly one of id, ids or status');
    if (ids) return cancelMany(call, scope, [...new Set(ids)], false, 'tasks');
    if (status) {
      const found = await matching(await call.client(), scope, status, call.signal);
      return cancelMany(call, scope, found.ids, found.more, `${status} tasks`);
    }
    const { answer, status: now } = await cancelOne(await call.client(), scope, id!);
    if (!answer) return { data: { id, status: now, already_ended: true }, summary: `Task ${id} had already ended (already ${knownStatus(now, TASK_STATUSES)}); nothing changed.` };
    return { data: { ...answer, id }, summary: `Task ${id}: cancelled.`, quoted: answer.message ? [answer.message] : [] };
  }),
});
