import type { TimelineQuery } from '../api/persistent-agents.js';
import { deliverMessage, type MessageDraft } from '../core/web-message.js';
import { waitForAgentEvent } from '../core/conversation.js';
import { WAIT_ACTOR_TYPES, WAIT_EVENT_TYPES } from '../api/service-mcp.js';
import { systemClock } from '../contract/clock.js';
import { persistentAgents, timelineWindowsBackwards } from '../api/persistent-agents.js';
import { MESSAGE_CHANNELS, TASK_STATUSES, TIMELINE_DIRECTIONS } from '../contract/enums.js';
import { PAGE_LIMITS, SERVICE_LIMITS } from '../contract/limits.js';
import { InputError } from '../errors.js';
import { persistentAgentBody } from '../core/persistent-body.js';
import { pageSizeOf } from './agents.js';
import { agentToolsApi } from './agent-tools.js';
import type { ClientCore } from './core.js';
import type { PersistentApi, TimelineOptions } from './surface.js';
import { integer, nonEmptyString, oneOf, uuid } from './input.js';
import { flatten } from './walk.js';
import type { MessageInput, MessageResponse, TimelineEvent } from './types.js';

export function persistentApi(core: ClientCore): PersistentApi {
  const { api, call } = core;
  const one = <T>(id: string, route: (id: string) => Promise<T>) => call(async () => route(uuid('id', id)));
  return {
    ...agentToolsApi(core),
    create: (input, options = {}) =>
      call(async () => await persistentAgents.create(api, persistentAgentBody(input, 'create'), options)),
    get: (id, options = {}) => one(id, async (agent) => await persistentAgents.get(api, agent, options)),
    list(options = {}) {
      const pageSize = pageSizeOf(options);
      return core.iterate(() => flatten(persistentAgents.listAll(api, { pageSize, signal: options.signal })));
    },
    update: (id, input, options = {}) => one(id, async (agent) => await persistentAgents.update(api, agent, persistentAgentBody(input, 'update'), options)),
    delete: (id, options = {}) => one(id, async (agent) => void (await persistentAgents.delete(api, agent, options))),
    activate: (id, options = {}) => one(id, (agent) => persistentAgents.activate(api, agent, options)),
    deactivate: (id, options = {}) => one(id, (agent) => persistentAgents.deactivate(api, agent, options)),
    message: (id, input, options = {}) => one(id, async (agent): Promise<MessageResponse> => ({ ...(await deliverMessage(api, agent, messageDraft(input), options)) })),
    waitForEvent: (id, options = {}) =>
      one(id, async (agent) => {
        const { afterCursor, type, from, channel, timeoutMs = 30_000, signal } = options;
        const filter = { types: type === undefined ? undefined : [oneOf('type', type, WAIT_EVENT_TYPES)], from: from === undefined ? undefined : oneOf('from', from, WAIT_ACTOR_TYPES), channel };
        const outcome = await waitForAgentEvent(api, agent, { ...filter, afterCursor: afterCursor === undefined ? undefined : nonEmptyString('afterCursor', afterCursor), timeoutMs: integer('timeoutMs', timeoutMs, 0, 24 * 3600 * 1000), clock: core.clock ?? systemClock }, { signal });
        return { ...outcome, events: outcome.events as TimelineEvent[] };
      }),
    status: (id, options = {}) => one(id, async (agent) => await persistentAgents.processingStatus(api, agent, options)),
    webTasks: (id, options = {}) =>
      one(id, async (agent) => {
        const status = options.status === undefined ? undefined : oneOf('status', options.status, TASK_STATUSES);
        const limit = options.limit === undefined ? undefined : integer('limit', options.limit, 1, PAGE_LIMITS.webTasks.max);
        const answer = await persistentAgents.webTasks(api, agent, { status, limit }, { signal: options.signal });
        // As the command line does: the service may not filter by status itself.
        return status ? answer.results.filter((task) => task.status === status) : answer.results;
      }),
    timeline: (id, options = {}) => one(id, async (agent) => await persistentAgents.timeline(api, agent, timelineQuery(options), { signal: options.signal })),
    events(id, options = {}) {
      const [agent, query] = [uuid('id', id), timelineQuery(options)];
      return core.iterate(() => flatten(timelineWindowsBackwards(api, agent, query, undefined, { signal: options.signal })));
    },
  };
}

function messageDraft(input: MessageInput): MessageDraft {
  if (typeof input !== 'object' || input === null) throw new InputError('input', 'must be an object like { channel, body }');
  return {
    ...input,
    channel: oneOf('channel', input.channel, MESSAGE_CHANNELS),
    sender: input.sender === undefined ? undefined : nonEmptyString('sender', input.sender, SERVICE_LIMITS.messageSender),
    body: nonEmptyString('body', input.body),
  };
}

function timelineQuery(options: TimelineOptions): TimelineQuery {
  const query: TimelineQuery = {};
  if (options.direction !== undefined) query.direction = oneOf('direction', options.direction, TIMELINE_DIRECTIONS);
  if (options.cursor !== undefined) query.cursor = nonEmptyString('cursor', options.cursor);
  if (query.direction !== undefined && query.direction !== 'initial' && query.cursor === undefined) {
    throw new InputError('cursor', `is needed with direction "${query.direction}": take oldest_cursor or newest_cursor from a window`);
  }
  if (options.limit !== undefined) query.limit = integer('limit', options.limit, 1, PAGE_LIMITS.timeline.max);
  return query;
}
