import type { ApiClient } from './client.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import type { LegacyAgent } from './schemas/legacy-agent.js';
import { SHAPES } from './schemas/shapes.js';
import { pathSegment } from './url.js';

const LIST = '/agents/browser-use/';
const item = (id: string) => `${LIST}${pathSegment(id)}/`;

export const legacyAgents = {
  listPage: (client: ApiClient, request: PageRequest) => fetchPage(client, LIST, SHAPES.legacyAgentPage, request),
  listAll: (client: ApiClient, request: PageRequest) => iterateAll(client, LIST, SHAPES.legacyAgentPage, request),
  create: (client: ApiClient, body: { name: string }) => client.post<LegacyAgent>(LIST, body, { shape: SHAPES.legacyAgent }),
  get: (client: ApiClient, id: string) => client.get<LegacyAgent>(item(id), { shape: SHAPES.legacyAgent }),
  update: (client: ApiClient, id: string, body: { name?: string }) =>
    client.patch<LegacyAgent>(item(id), body, { shape: SHAPES.legacyAgent }),
  replace: (client: ApiClient, id: string, body: { name: string }) =>
    client.put<LegacyAgent>(item(id), body, { shape: SHAPES.legacyAgent }),
  delete: (client: ApiClient, id: string) => client.delete(item(id)),
};
