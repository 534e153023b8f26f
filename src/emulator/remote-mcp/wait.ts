import type { PersistentAgentRecord } from '../persistent-state.js';
import type { State } from '../state.js';
import { agentAccess } from './access.js';
import { boundedInt, parseUuid, ToolError, truthy, type Args } from './args.js';
import type { McpServices } from './context.js';
import { checkCursor, windowOf } from './timeline-tool.js';

// gobii_wait_for_agent_event (remote_mcp.py _tool_wait_for_agent_event): a bounded long-poll over
// the timeline. The service polls every half second until the timeout; the emulator looks again
// when an event joins the agent's timeline, and gives up at the timeout on its own clock.

const EVENT_TYPES = ['message', 'plan', 'steps', 'thinking'];
const FILTER_FIELDS = ['channel', 'from_actor_type', 'from_agent_id', 'message_id', 'peer_link_id', 'status', 'tool_name', 'to_agent_id'];
const ACTOR_TYPES = ['agent', 'human_user', 'external', 'system'];
const UUID_FILTERS = new Set(['from_agent_id', 'to_agent_id', 'message_id', 'peer_link_id']);

type Event = Record<string, unknown>;

export async function waitTool({ state }: McpServices, args: Args) {
  const agent = agentAccess(state, args.agent_id, args);
  const after = truthy(args.after_cursor) ? args.after_cursor : null;
  if (after !== null && typeof after !== 'string') throw new ToolError('after_cursor must be a string.');
  checkCursor(after, 'after_cursor');
  const timeoutSeconds = boundedInt(args.timeout_seconds ?? 10, 'timeout_seconds', 0, 30);
  const limit = boundedInt(args.limit ?? 20, 'limit', 1, 100);
  const types = eventTypes(args.event_types);
  const filters = waitFilters(args.filters);
  const clock = state.clock;
  const start = clock.now();
  const deadline = start + timeoutSeconds * 1000;
  let latest = after;
  for (;;) {
    const window = windowOf(state, agent, latest, latest ? 'newer' : 'initial', limit);
    if (window.newest_cursor) latest = window.newest_cursor;
    const events = window.events.filter((event) => matches(agent, event, types, filters));
    const done = events.length > 0 || clock.now() >= deadline;
    if (done) {
      const waited = Math.round(clock.now() - start) / 1000;
      return { matched: events.length > 0, timed_out: events.length === 0, events, next_cursor: latest, latest_cursor: latest, waited_seconds: waited };
    }
    await nextEventOrDeadline(state, agent.id, deadline);
  }
}

/** Resolves when an event joins the agent's timeline or the deadline passes on the emulator's clock. */
function nextEventOrDeadline(state: State, agentId: string, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = state.clock.setTimeout(() => finish(), Math.max(0, deadline - state.clock.now()));
    const unsubscribe = state.onTimelineEvent((id) => {
      if (id === agentId) finish();
    });
    function finish() {
      state.clock.clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

/** _normalize_wait_event_types: null or [] is any kind. */
function eventTypes(value: unknown): Set<string> | null {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return null;
  if (!Array.isArray(value)) throw new ToolError('event_types must be an array.', { field: 'event_types' });
  const invalid = value.filter((item) => typeof item !== 'string' || !EVENT_TYPES.includes(item.trim()));
  if (invalid.length > 0) throw new ToolError('event_types contains unsupported values.', { field: 'event_types', unsupported_values: invalid, supported_values: EVENT_TYPES });
  return new Set(value.map((item: string) => item.trim()));
}

/** _normalize_wait_filters: known fields only; ids read as UUIDs; texts non-blank, stripped; null or "" skipped. */
function waitFilters(value: unknown): Map<string, string> {
  const filters = new Map<string, string>();
  if (value === undefined || value === null) return filters;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ToolError('filters must be an object.', { field: 'filters' });
  const given = value as Record<string, unknown>;
  const unsupported = Object.keys(given).filter((key) => !FILTER_FIELDS.includes(key)).sort();
  if (unsupported.length > 0) throw new ToolError('filters contains unsupported fields.', { unsupported_fields: unsupported, supported_fields: FILTER_FIELDS });
  for (const [key, raw] of Object.entries(given)) {
    if (raw === null || raw === '') continue;
    if (UUID_FILTERS.has(key)) filters.set(key, parseUuid(raw, key));
    else if (typeof raw !== 'string' || raw.trim() === '') throw new ToolError(`filters.${key} must be a non-empty string.`);
    else filters.set(key, raw.trim());
  }
  const actor = filters.get('from_actor_type');
  if (actor !== undefined && !ACTOR_TYPES.includes(actor)) throw new ToolError('filters.from_actor_type contains an unsupported value.', { field: 'from_actor_type', supported_values: ACTOR_TYPES });
  return filters;
}

/** _wait_event_matches. */
function matches(agent: PersistentAgentRecord, event: Event, types: Set<string> | null, filters: Map<string, string>): boolean {
  if (types !== null && !types.has(event.kind as string)) return false;
  for (const [key, expected] of filters) {
    if (event.kind === 'steps' && (key === 'status' || key === 'tool_name')) {
      const entryKey = key === 'status' ? 'status' : 'toolName';
      if (!((event.entries as Event[] | undefined) ?? []).some((entry) => (entry[entryKey] || '') === expected)) return false;
      continue;
    }
    if (fieldValue(agent, event, key) !== expected) return false;
  }
  return true;
}

/** _wait_event_field_value: who an event is from and to, as the serialized event tells. */
function fieldValue(agent: PersistentAgentRecord, event: Event, key: string): unknown {
  if (event.kind !== 'message') return key === 'from_actor_type' && event.kind !== 'user_action' ? 'system' : null;
  const message = (event.message ?? {}) as Event;
  const peer = (message.peerAgent ?? {}) as Event;
  const isPeer = Boolean(message.isPeer);
  const outbound = Boolean(message.isOutbound);
  switch (key) {
    case 'from_actor_type':
      return isPeer || outbound ? 'agent' : message.senderUserId ? 'human_user' : 'external';
    case 'from_agent_id':
      return isPeer && !outbound ? peer.id : outbound ? agent.id : null;
    case 'to_agent_id':
      return isPeer && outbound ? peer.id : !outbound ? agent.id : null;
    case 'message_id':
      return message.id;
    case 'peer_link_id':
      return message.peerLinkId;
    case 'channel':
      return message.channel;
    default:
      return null;
  }
}
