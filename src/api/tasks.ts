import type { ApiClient, RequestOptions } from './client.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import {
  CancelResponseSchema,
  CreatedTaskSchema,
  TaskResultSchema,
  TaskSchema,
  type CancelResponse,
  type Task,
  type TaskBody,
  type TaskResult,
} from './schemas/task.js';

/**
 * Tasks live on two route families with the same shape: standalone (`/tasks/browser-use/`) and
 * agent-scoped (`/agents/browser-use/{agentId}/tasks/`). A scope picks one.
 */
export interface TaskScope {
  agentId?: string;
}

function base(scope: TaskScope): string {
  return scope.agentId ? `/agents/browser-use/${scope.agentId}/tasks/` : '/tasks/browser-use/';
}

const item = (scope: TaskScope, id: string) => `${base(scope)}${id}/`;

/** Long-polling requests (server-side wait) get the wait plus the normal per-request timeout. */
export function createTimeoutMs(body: TaskBody, normalTimeoutMs: number): number {
  return body.wait ? body.wait * 1000 + normalTimeoutMs : normalTimeoutMs;
}

export const tasks = {
  listPage: (client: ApiClient, scope: TaskScope, request: PageRequest) => fetchPage(client, base(scope), TaskSchema, request),
  listAll: (client: ApiClient, scope: TaskScope, request: PageRequest) => iterateAll(client, base(scope), TaskSchema, request),
  create: (client: ApiClient, scope: TaskScope, body: TaskBody, options: RequestOptions<Task> = {}) =>
    client.post<Task>(base(scope), body, { ...options, schema: TaskSchema }),
  /** Creates a task and answers only its id (run-batch prints nothing else of the record). */
  createForId: async (client: ApiClient, scope: TaskScope, body: TaskBody, options: RequestOptions<{ id: string }> = {}) =>
    (await client.request('POST', base(scope), { ...options, body, schema: CreatedTaskSchema })).data.id,
  get: (client: ApiClient, scope: TaskScope, id: string, options: RequestOptions<Task> = {}) =>
    client.get<Task>(item(scope, id), { ...options, schema: TaskSchema }),
  update: (client: ApiClient, scope: TaskScope, id: string, body: TaskBody) =>
    client.patch<Task>(item(scope, id), body, { schema: TaskSchema }),
  replace: (client: ApiClient, scope: TaskScope, id: string, body: TaskBody) =>
    client.put<Task>(item(scope, id), body, { schema: TaskSchema }),
  delete: (client: ApiClient, scope: TaskScope, id: string) => client.delete(item(scope, id)),
  cancel: (client: ApiClient, scope: TaskScope, id: string) =>
    client.post<CancelResponse>(`${item(scope, id)}cancel/`, undefined, { schema: CancelResponseSchema }),
  result: (client: ApiClient, scope: TaskScope, id: string, options: RequestOptions<TaskResult> = {}) =>
    client.get<TaskResult>(`${item(scope, id)}result/`, { ...options, schema: TaskResultSchema }),
};
