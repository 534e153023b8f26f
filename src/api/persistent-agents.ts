import type { ApiClient } from './client.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import type {
  ActivationResponse,
  MessageResponse,
  PersistentAgent,
  PersistentAgentBody,
  ProcessingStatus,
  SchedulePreview,
  Timeline,
  WebTasksResponse,
} from './schemas/persistent-agent.js';
import { SHAPES } from './schemas/shapes.js';

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
  listPage: (client: ApiClient, request: PageRequest) => fetchPage(client, LIST, SHAPES.persistentAgentPage, request),
  listAll: (client: ApiClient, request: PageRequest) => iterateAll(client, LIST, SHAPES.persistentAgentPage, request),
  create: (client: ApiClient, body: PersistentAgentBody) => client.post<PersistentAgent>(LIST, body, { shape: SHAPES.persistentAgent }),
  get: (client: ApiClient, id: string) => client.get<PersistentAgent>(item(id), { shape: SHAPES.persistentAgent }),
  update: (client: ApiClient, id: string, body: PersistentAgentBody) =>
    client.patch<PersistentAgent>(item(id), body, { shape: SHAPES.persistentAgent }),
  replace: (client: ApiClient, id: string, body: PersistentAgentBody) =>
    client.put<PersistentAgent>(item(id), body, { shape: SHAPES.persistentAgent }),
  delete: (client: ApiClient, id: string) => client.delete(item(id)),
  activate: (client: ApiClient, id: string) =>
    client.post<ActivationResponse>(`${item(id)}activate/`, undefined, { shape: SHAPES.activation }),
  deactivate: (client: ApiClient, id: string) =>
    client.post<ActivationResponse>(`${item(id)}deactivate/`, undefined, { shape: SHAPES.activation }),
  message: (client: ApiClient, id: string, body: MessageBody) =>
    client.post<MessageResponse>(`${item(id)}messages/`, body, { shape: SHAPES.message }),
  processingStatus: (client: ApiClient, id: string) =>
    client.get<ProcessingStatus>(`${item(id)}processing-status/`, { shape: SHAPES.processingStatus }),
  timeline: (client: ApiClient, id: string, query: TimelineQuery = {}) =>
    client.get<Timeline>(`${item(id)}timeline/`, { query: { ...query }, shape: SHAPES.timeline }),
  webTasks: (client: ApiClient, id: string, query: WebTasksQuery = {}) =>
    client.get<WebTasksResponse>(`${item(id)}web-tasks/`, { query: { ...query }, shape: SHAPES.webTasks }),
  /** The reference deployment reads only `schedule`; the spec names the agent fields, so `name` goes too. */
  previewSchedule: (client: ApiClient, id: string, body: { name: string; schedule: string | null }) =>
    client.post<SchedulePreview>(`${item(id)}schedule/preview/`, body, { shape: SHAPES.schedulePreview }),
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
