import type { ApiClient } from './client.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import {
  ActivationResponseSchema,
  MessageResponseSchema,
  PersistentAgentListItemSchema,
  PersistentAgentSchema,
  ProcessingStatusSchema,
  SchedulePreviewSchema,
  TimelineSchema,
  WebTasksResponseSchema,
  type ActivationResponse,
  type MessageResponse,
  type PersistentAgent,
  type PersistentAgentBody,
  type ProcessingStatus,
  type SchedulePreview,
  type Timeline,
  type WebTasksResponse,
} from './schemas/persistent-agent.js';

const LIST = '/agents/';
const item = (id: string) => `${LIST}${id}/`;

export interface MessageBody {
  channel: string;
  sender: string;
  body: string;
  recipient?: string;
  subject?: string;
  metadata?: Record<string, unknown>;
}

export interface TimelineQuery {
  direction?: string;
  cursor?: string;
  limit?: number;
}

export interface WebTasksQuery {
  status?: string;
  limit?: number;
}

/** The persistent-agent routes (`/agents/...`), one function each. */
export const persistentAgents = {
  listPage: (client: ApiClient, request: PageRequest) => fetchPage(client, LIST, PersistentAgentListItemSchema, request),
  listAll: (client: ApiClient, request: PageRequest) => iterateAll(client, LIST, PersistentAgentListItemSchema, request),
  create: (client: ApiClient, body: PersistentAgentBody) => client.post<PersistentAgent>(LIST, body, { schema: PersistentAgentSchema }),
  get: (client: ApiClient, id: string) => client.get<PersistentAgent>(item(id), { schema: PersistentAgentSchema }),
  update: (client: ApiClient, id: string, body: PersistentAgentBody) =>
    client.patch<PersistentAgent>(item(id), body, { schema: PersistentAgentSchema }),
  replace: (client: ApiClient, id: string, body: PersistentAgentBody) =>
    client.put<PersistentAgent>(item(id), body, { schema: PersistentAgentSchema }),
  delete: (client: ApiClient, id: string) => client.delete(item(id)),
  activate: (client: ApiClient, id: string) =>
    client.post<ActivationResponse>(`${item(id)}activate/`, undefined, { schema: ActivationResponseSchema }),
  deactivate: (client: ApiClient, id: string) =>
    client.post<ActivationResponse>(`${item(id)}deactivate/`, undefined, { schema: ActivationResponseSchema }),
  message: (client: ApiClient, id: string, body: MessageBody) =>
    client.post<MessageResponse>(`${item(id)}messages/`, body, { schema: MessageResponseSchema }),
  processingStatus: (client: ApiClient, id: string) =>
    client.get<ProcessingStatus>(`${item(id)}processing-status/`, { schema: ProcessingStatusSchema }),
  timeline: (client: ApiClient, id: string, query: TimelineQuery = {}) =>
    client.get<Timeline>(`${item(id)}timeline/`, { query: { ...query }, schema: TimelineSchema }),
  webTasks: (client: ApiClient, id: string, query: WebTasksQuery = {}) =>
    client.get<WebTasksResponse>(`${item(id)}web-tasks/`, { query: { ...query }, schema: WebTasksResponseSchema }),
  /** The reference deployment reads only `schedule`; the spec names the agent fields, so `name` goes too. */
  previewSchedule: (client: ApiClient, id: string, body: { name: string; schedule: string | null }) =>
    client.post<SchedulePreview>(`${item(id)}schedule/preview/`, body, { schema: SchedulePreviewSchema }),
};

/**
 * Every timeline event from the newest window back to the first, following `oldest_cursor` while
 * `has_more_older`. Yields windows newest first (each window ascending in time).
 */
export async function* timelineWindowsBackwards(
  client: ApiClient,
  id: string,
  query: TimelineQuery,
): AsyncGenerator<Timeline, void, undefined> {
  let window = await persistentAgents.timeline(client, id, query);
  const seen = new Set<string>();
  for (;;) {
    yield window;
    const cursor = window.oldest_cursor;
    if (!window.has_more_older || !cursor || window.events.length === 0) return;
    // A service that hands back the same cursor would loop forever; stop instead.
    if (seen.has(cursor)) return;
    seen.add(cursor);
    window = await persistentAgents.timeline(client, id, { direction: 'older', cursor, limit: query.limit });
  }
}
