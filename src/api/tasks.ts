import type { ApiClient, RequestOptions } from './client.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import { SHAPES } from './schemas/shapes.js';
import type { CancelResponse, Task, TaskBody, TaskResult } from './schemas/task.js';
import { pathSegment } from './url.js';

/**
 * Tasks live on two route families with the same shape: standalone (`/tasks/browser-use/`) and
 * agent-scoped (`/agents/browser-use/{agentId}/tasks/`). A scope picks one.
 */
export interface TaskScope {
  agentId?: string;
}

function base(scope: TaskScope): string {
  return scope.agentId ? `/agents/browser-use/${pathSegment(scope.agentId)}/tasks/` : '/tasks/browser-use/';
}

const item = (scope: TaskScope, id: string) => `${base(scope)}${pathSegment(id)}/`;

/** Long-polling requests (server-side wait) get the wait plus the normal per-request timeout. */
export function createTimeoutMs(body: TaskBody, normalTimeoutMs: number): number {
  return body.wait ? body.wait * 1000 + normalTimeoutMs : normalTimeoutMs;
}

export const tasks = {
  listPage: (client: ApiClient, scope: TaskScope, request: PageRequest) => fetchPage(client, base(scope), SHAPES.taskPage, request),
  listAll: (client: ApiClient, scope: TaskScope, request: PageRequest) => iterateAll(client, base(scope), SHAPES.taskPage, request),
  create: (client: ApiClient, scope: TaskScope, body: TaskBody, options: RequestOptions<Task> = {}) =>
    client.post<Task>(base(scope), body, { ...options, shape: SHAPES.task }),
  /** Creates a task; the answer's data is only its id (run-batch prints nothing else of the record). */
  createForId: (client: ApiClient, scope: TaskScope, body: TaskBody, options: RequestOptions<{ id: string }> = {}) =>
    client.request('POST', base(scope), { ...options, body, shape: SHAPES.createdTask }),
  get: (client: ApiClient, scope: TaskScope, id: string, options: RequestOptions<Task> = {}) =>
    client.get<Task>(item(scope, id), { ...options, shape: SHAPES.task }),
  update: (client: ApiClient, scope: TaskScope, id: string, body: TaskBody, options: RequestOptions<Task> = {}) =>
    client.patch<Task>(item(scope, id), body, { ...options, shape: SHAPES.task }),
  replace: (client: ApiClient, scope: TaskScope, id: string, body: TaskBody, options: RequestOptions<Task> = {}) =>
    client.put<Task>(item(scope, id), body, { ...options, shape: SHAPES.task }),
  delete: (client: ApiClient, scope: TaskScope, id: string, options: RequestOptions<unknown> = {}) => client.delete(item(scope, id), options),
  cancel: (client: ApiClient, scope: TaskScope, id: string, options: RequestOptions<CancelResponse> = {}) =>
    client.post<CancelResponse>(`${item(scope, id)}cancel/`, undefined, { ...options, shape: SHAPES.cancel }),
  result: (client: ApiClient, scope: TaskScope, id: string, options: RequestOptions<TaskResult> = {}) =>
    client.get<TaskResult>(`${item(scope, id)}result/`, { ...options, shape: SHAPES.taskResult }),
};
