// Reading what an agent says, the way the service offers it: its MCP endpoint's timeline and bounded
// event wait over durable cursors (gobii-platform api/services/remote_mcp.py, _tool_get_agent_timeline,
// _tool_wait_for_agent_event). Each wait answers the events strictly after the cursor it was given,
// oldest first, and the cursor to go on from (next_cursor: the newest event it looked at), so a
// reader that always goes on from next_cursor neither misses an event nor sees one twice. Every face
// reads through here: the chat, `persistent wait-event`, the library, the MCP server.
import type { ApiClient, RequestOptions } from '../api/client.js';
import { isTransientError } from '../api/errors.js';
import { WAIT_MAX_SECONDS, serviceMcp, type ServiceEvent, type WaitQuery } from '../api/service-mcp.js';
import type { Clock } from '../contract/clock.js';

type Options = Pick<RequestOptions<never>, 'signal'>;

/** The newest timeline cursor now (null: an empty timeline), and the newest `limit` events. */
export async function timelineNow(api: ApiClient, agentId: string, limit = 1, options: Options = {}): Promise<{ cursor: string | null; events: ServiceEvent[] }> {
  const window = await serviceMcp.timeline(api, { agent_id: agentId, limit }, options);
  return { cursor: window.latest_cursor ?? window.events.at(-1)?.cursor ?? null, events: window.events };
}

export interface EventFilter {
  /** Event kinds to match (message, steps, thinking, plan); all without. */
  types?: WaitQuery['event_types'];
  /** Who the event is from: agent (its replies), human_user, external, system. */
  from?: NonNullable<WaitQuery['filters']>['from_actor_type'];
  /** A message's channel (web, email, mcp, ...). */
  channel?: string;
}

export interface WaitOutcome {
  matched: boolean;
  events: ServiceEvent[];
  /** Where to go on from: strictly after it come the events not yet looked at. */
  cursor: string | null;
}

/**
 * Waits until an event after `afterCursor` (without: after the newest event now) matches `filter`,
 * or `timeoutMs` passes: one wait of the service's after another (each at most WAIT_MAX_SECONDS),
 * each going on from the last one's cursor.
 */
export async function waitForAgentEvent(
  api: ApiClient,
  agentId: string,
  request: EventFilter & { afterCursor?: string | null; timeoutMs: number; limit?: number; clock: Clock },
  options: Options = {},
): Promise<WaitOutcome> {
  let cursor = request.afterCursor === undefined ? (await timelineNow(api, agentId, 1, options)).cursor : request.afterCursor;
  const deadline = request.clock.now() + request.timeoutMs;
  const filters = { ...(request.from ? { from_actor_type: request.from } : {}), ...(request.channel ? { channel: request.channel } : {}) };
  for (;;) {
    const left = Math.max(0, deadline - request.clock.now());
    const query: WaitQuery = { agent_id: agentId, after_cursor: cursor, timeout_seconds: Math.min(WAIT_MAX_SECONDS, Math.ceil(left / 1000)), limit: request.limit ?? 100 };
    if (request.types?.length) query.event_types = request.types;
    if (Object.keys(filters).length > 0) query.filters = filters;
    const answer = await serviceMcp.waitForEvent(api, query, options);
    cursor = answer.next_cursor ?? answer.events.at(-1)?.cursor ?? cursor;
    if (answer.matched && answer.events.length > 0) return { matched: true, events: answer.events, cursor };
    if (request.clock.now() >= deadline) return { matched: false, events: [], cursor };
  }
}

export interface FollowHooks {
  onEvents(events: ServiceEvent[]): void;
  /** Checked after each wait: true ends the follow. */
  done(): boolean;
  /** A transient failure the client's retries did not ride out: the follow goes on after `pauseMs`. */
  onTrouble?(error: Error): void;
  /** Ends the follow at once, the wait in flight included. */
  signal: AbortSignal;
  sleep: Clock['sleep'];
}

const TROUBLE_PAUSE_MS = 2_000;

/** Every event after `cursor` as it comes (the chat's replies), until `done()` or the signal; each event once. */
export async function followAgentEvents(api: ApiClient, agentId: string, cursor: string | null, hooks: FollowHooks): Promise<void> {
  let shown = new Set<string>();
  while (!hooks.signal.aborted && !hooks.done()) {
    try {
      const answer = await serviceMcp.waitForEvent(api, { agent_id: agentId, after_cursor: cursor, timeout_seconds: WAIT_MAX_SECONDS, limit: 100 }, { signal: hooks.signal });
      cursor = answer.next_cursor ?? answer.events.at(-1)?.cursor ?? cursor;
      // A service that handed back an event already shown (its cursor did not move) would show it again.
      const fresh = answer.events.filter((event) => !event.cursor || !shown.has(event.cursor));
      if (fresh.length > 0) {
        shown = new Set(fresh.flatMap((event) => (event.cursor ? [event.cursor] : [])));
        hooks.onEvents(fresh);
      }
    } catch (error) {
      if (hooks.signal.aborted) return;
      if (!isTransientError(error)) throw error;
      hooks.onTrouble?.(error);
      await hooks.sleep(TROUBLE_PAUSE_MS, hooks.signal).catch(() => undefined);
    }
  }
}
