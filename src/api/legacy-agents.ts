import type { ApiClient } from './client.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import { LegacyAgentSchema, type LegacyAgent } from './schemas/legacy-agent.js';

const LIST = '/agents/browser-use/';
const item = (id: string) => `${LIST}${id}/`;

export const legacyAgents = {
  listPage: (client: ApiClient, request: PageRequest) => fetchPage(client, LIST, LegacyAgentSchema, request),
  listAll: (client: ApiClient, request: PageRequest) => iterateAll(client, LIST, LegacyAgentSchema, request),
  create: (client: ApiClient, body: { name: string }) => client.post<LegacyAgent>(LIST, body, { schema: LegacyAgentSchema }),
  get: (client: ApiClient, id: string) => client.get<LegacyAgent>(item(id), { schema: LegacyAgentSchema }),
  update: (client: ApiClient, id: string, body: { name?: string }) =>
    client.patch<LegacyAgent>(item(id), body, { schema: LegacyAgentSchema }),
  replace: (client: ApiClient, id: string, body: { name: string }) =>
    client.put<LegacyAgent>(item(id), body, { schema: LegacyAgentSchema }),
  delete: (client: ApiClient, id: string) => client.delete(item(id)),
};
