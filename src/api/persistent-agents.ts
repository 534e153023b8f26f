import type { ApiClient, RequestOptions } from './client.js';
import { PAGE_LIMITS } from '../contract/limits.js';
import { EndlessListError } from './errors.js';
import { fetchPage, iterateAll, type PageRequest } from './pagination.js';
import type {
  ActivationResponse,
  MessageResponse,
  PersistentAgent,
  PersistentAgentBody,
  ProcessingStatus,
  SchedulePreview,
  Timeline,
  TimelineEvent,
  WebTasksResponse,
} from './schemas/persistent-agent.js';
import { SHAPES } from './schemas/shapes.js';
import { pathSegment } from './url.js';

const LIST = '/agents/';
const item = (id: string) => `${LIST}${pathSegment(id)}/`;

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

/** Request options a route passes on (a caller's signal, a time limit); the route sets the shape. */
type Options = Omit<RequestOptions<never>, 'shape' | 'body' | 'query'>;

/** The persistent-agent routes (`/agents/...`), one function each. */
export const persistentAgents = {
  listPage: (client: ApiClient, request: PageRequest) => fetchPage(client, LIST, SHAPES.persistentAgentPage, request),
  listAll: (client: ApiClient, request: PageRequest) => iterateAll(client, LIST, SHAPES.persistentAgentPage, request),
  create: (client: ApiClient, body: PersistentAgentBody, options: Options = {}) =>
    client.post<PersistentAgent>(LIST, body, { ...options, shape: SHAPES.persistentAgent }),
  get: (client: ApiClient, id: string, options: Options = {}) => client.get<PersistentAgent>(item(id), { ...options, shape: SHAPES.persistentAgent }),
  update: (client: ApiClient, id: string, body: PersistentAgentBody, options: Options = {}) =>
    client.patch<PersistentAgent>(item(id), body, { ...options, shape: SHAPES.persistentAgent }),
  replace: (client: ApiClient, id: string, body: PersistentAgentBody, options: Options = {}) =>
    client.put<PersistentAgent>(item(id), body, { ...options, shape: SHAPES.persistentAgent }),
  delete: (client: ApiClient, id: string, options: Options = {}) => client.delete(item(id), options),
  activate: (client: ApiClient, id: string, options: Options = {}) =>
    client.post<ActivationResponse>(`${item(id)}activate/`, undefined, { ...options, shape: SHAPES.activation }),
  deactivate: (client: ApiClient, id: string, options: Options = {}) =>
    client.post<ActivationResponse>(`${item(id)}deactivate/`, undefined, { ...options, shape: SHAPES.activation }),
  message: (client: ApiClient, id: string, body: MessageBody, options: Options = {}) =>
    client.post<MessageResponse>(`${item(id)}messages/`, body, { ...options, shape: SHAPES.message }),
  processingStatus: (client: ApiClient, id: string, options: Options = {}) =>
    client.get<ProcessingStatus>(`${item(id)}processing-status/`, { ...options, shape: SHAPES.processingStatus }),
  timeline: (client: ApiClient, id: string, query: TimelineQuery = {}, options: Options = {}) =>
    client.get<Timeline>(`${item(id)}timeline/`, { ...options, query: { ...query }, shape: SHAPES.timeline }),
  webTasks: (client: ApiClient, id: string, query: WebTasksQuery = {}, options: Options = {}) =>
    client.get<WebTasksResponse>(`${item(id)}web-tasks/`, { ...options, query: { ...query }, shape: SHAPES.webTasks }),
  /** The reference deployment reads only `schedule`; the spec names the agent fields, so `name` goes too. */
  previewSchedule: (client: ApiClient, id: string, body: { name: string; schedule: string | null }, options: Options = {}) =>
    client.post<SchedulePreview>(`${item(id)}schedule/preview/`, body, { ...options, shape: SHAPES.schedulePreview }),
};

/**
 * Most windows `timeline --all` reads: 1,000 windows of up to 100 events (the service's largest
 * `limit`, which --all asks for) is 100,000 events, an agent's history many times over, and every
 * window read is held until the walk ends (the log prints oldest first).
 */
export const TIMELINE_MAX_WINDOWS = 1000;

/**
 * Every timeline event from the newest window back to the first, following `oldest_cursor` while
 * `has_more_older`. Yields each window's events not read before, windows newest first (each window
 * ascending in time). Throws EndlessListError (after yielding what was read) when the service's
 * windows would never end: a cursor already followed, a window with nothing new, or the window cap.
 */
export async function* timelineWindowsBackwards(
  client: ApiClient,
  id: string,
  query: TimelineQuery,
  maxWindows = TIMELINE_MAX_WINDOWS,
  options: Options = {},
): AsyncGenerator<TimelineEvent[], void, undefined> {
  const followed = new Map<string, number>();
  const seen = new Set<string>();
  let window = await persistentAgents.timeline(client, id, query, options);
  for (let number = 1; ; number++) {
    const fresh = window.events.filter((event) => !event.cursor || !seen.has(event.cursor));
    for (const event of fresh) if (event.cursor) seen.add(event.cursor);
    yield fresh;
    if (!window.has_more_older) return;
    if (fresh.length === 0) {
      const what = window.events.length === 0 ? 'is empty' : 'holds only events already read';
      throw new EndlessListError(`window ${number} ${what} yet says there are older events: the service's windows bring nothing new`);
    }
    const cursor = window.oldest_cursor;
    if (!cursor) throw new EndlessListError(`window ${number} says there are older events but gives no oldest_cursor to read them by`);
    const earlier = followed.get(cursor);
    if (earlier !== undefined) {
      throw new EndlessListError(`window ${number} gives the same oldest_cursor as window ${earlier} (${cursor}): the service's windows go round in a circle`);
    }
    if (number >= maxWindows) {
      throw new EndlessListError(
        `the timeline goes back more than ${maxWindows} windows, ${client.words.wholeTimeline} (${maxWindows * (query.limit ?? PAGE_LIMITS.timeline.default)} events at ${query.limit ?? PAGE_LIMITS.timeline.default} a window)`,
        client.words.olderFrom(cursor),
      );
    }
    followed.set(cursor, number);
    window = await persistentAgents.timeline(client, id, { direction: 'older', cursor, limit: query.limit }, options);
  }
}
