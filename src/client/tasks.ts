import { tasks, createTimeoutMs, type TaskScope } from '../api/tasks.js';
import type { TaskBody } from '../api/schemas/task.js';
import { systemClock } from '../contract/clock.js';
import { deadlineIn, waitForTaskEnd } from '../core/wait.js';
import { LIMITS } from '../contract/validate.js';
import { InputError } from '../errors.js';
import type { ClientCore } from './core.js';
import type { TaskCallOptions, TasksApi, WaitForTaskOptions } from './surface.js';
import { WaitTimeoutError } from './errors.js';
import { namedAs } from '../core/fields.js';
import { taskBody } from '../core/task-body.js';
import { duration, integer, optionalUuid, uuid } from './input.js';
import { flatten, joinSignals } from './walk.js';
import type { CreateTaskInput, Task } from './types.js';

const scopeOf = (options: TaskCallOptions | undefined): TaskScope => ({ agentId: optionalUuid('agentId', options?.agentId) });

export function tasksApi(core: ClientCore): TasksApi {
  const { api, call } = core;
  return {
    create: (input, options = {}) =>
      call(async () => {
        const body = createBody(input, core.redactor);
        const scope = scopeOf(input);
        return await tasks.create(api, scope, body, { signal: options.signal, timeoutMs: createTimeoutMs(body, core.timeoutMs) });
      }),
    get: (id, options = {}) => call(async () => await tasks.get(api, scopeOf(options), uuid('id', id), { signal: options.signal })),
    list(options = {}) {
      const scope = scopeOf(options);
      const pageSize = options.pageSize === undefined ? undefined : integer('pageSize', options.pageSize, 1, LIMITS.pageSize);
      return core.iterate(() => flatten(tasks.listAll(api, scope, { pageSize, signal: options.signal })));
    },
    wait: (id, options = {}) => call(() => waitFor(core, uuid('id', id), scopeOf(options), options)),
    result: (id, options = {}) => call(async () => await tasks.result(api, scopeOf(options), uuid('id', id), { signal: options.signal })),
    cancel: (id, options = {}) => call(async () => await tasks.cancel(api, scopeOf(options), uuid('id', id), { signal: options.signal })),
    delete: (id, options = {}) => call(async () => void (await tasks.delete(api, scopeOf(options), uuid('id', id), { signal: options.signal }))),
  };
}

/** `tasks.wait`: the one wait (core/wait.ts), its outcome as a record or a typed error. */
async function waitFor(core: ClientCore, id: string, scope: TaskScope, options: WaitForTaskOptions): Promise<Task> {
  const timeoutMs = options.timeoutMs === undefined ? undefined : duration('timeoutMs', options.timeoutMs);
  const clock = core.clock ?? systemClock;
  const outcome = await waitForTaskEnd({
    api: core.api,
    scope,
    id,
    limits: {
      deadline: deadlineIn(clock, timeoutMs),
      maxIntervalMs: options.maxIntervalMs === undefined ? undefined : duration('maxIntervalMs', options.maxIntervalMs),
      maxOutageMs: options.maxOutageMs === undefined ? undefined : duration('maxOutageMs', options.maxOutageMs),
    },
    clock,
    signal: joinSignals(core.signal, options.signal),
    onEvent: (event) => {
      if (event.type === 'status') options.onStatus?.(event.task);
    },
  });
  if (outcome.kind === 'finished') return outcome.task;
  if (outcome.kind === 'timed-out') throw new WaitTimeoutError(id, outcome.task, timeoutMs ?? 0);
  // Unreachable (or throttled) for longer than maxOutageMs: the last failure says how.
  throw outcome.error;
}

/** The library's fields named otherwise than the core's (src/core/task-body.ts). */
const FIELDS = { output_schema: 'outputSchema' } as const;

/** The service's body for a create: the core's, from the library's fields. */
function createBody(input: CreateTaskInput, redactor: ClientCore['redactor']): TaskBody {
  if (typeof input !== 'object' || input === null) throw new InputError('input', 'must be an object like { prompt: "..." }');
  const { outputSchema, agentId: _scope, ...fields } = input;
  return namedAs(FIELDS, () => taskBody({ ...fields, output_schema: outputSchema }, 'create', redactor));
}
