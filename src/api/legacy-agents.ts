import type { ApiClient, RequestOptions } from './client.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import type { LegacyAgent } from './schemas/legacy-agent.js';
import { SHAPES } from './schemas/shapes.js';
import { pathSegment } from './url.js';

const LIST = '/agents/browser-use/';
const item = (id: string) => `${LIST}${pathSegment(id)}/`;

/** Request options a route passes on (a caller's signal, a time limit); the route sets the shape. */
type Options = Omit<RequestOptions<never>, 'shape' | 'body'>;

/** A browser-use agent's writable fields: the name (built by src/core/legacy-agent-body.ts). */
export interface LegacyAgentBody {
  name: string;
}

export const legacyAgents = {
  listPage: (client: ApiClient, request: PageRequest) => fetchPage(client, LIST, SHAPES.legacyAgentPage, request),
  listAll: (client: ApiClient, request: PageRequest) => iterateAll(client, LIST, SHAPES.legacyAgentPage, request),
  create: (client: ApiClient, body: LegacyAgentBody, options: Options = {}) => client.post<LegacyAgent>(LIST, body, { ...options, shape: SHAPES.legacyAgent }),
  get: (client: ApiClient, id: string, options: Options = {}) => client.get<LegacyAgent>(item(id), { ...options, shape: SHAPES.legacyAgent }),
  update: (client: ApiClient, id: string, body: LegacyAgentBody, options: Options = {}) =>
    client.patch<LegacyAgent>(item(id), body, { ...options, shape: SHAPES.legacyAgent }),
  replace: (client: ApiClient, id: string, body: LegacyAgentBody, options: Options = {}) =>
    client.put<LegacyAgent>(item(id), body, { ...options, shape: SHAPES.legacyAgent }),
  delete: (client: ApiClient, id: string, options: Options = {}) => client.delete(item(id), options),
};
