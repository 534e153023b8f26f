import { PAGE_LIMITS } from '../../contract/limits.js';
import { processing } from '../persistent-routes.js';
import type { PersistentAgentRecord } from '../persistent-state.js';
import { decodeCursor, timelineWindow, type Direction } from '../timeline.js';
import type { State } from '../state.js';
import { agentAccess } from './access.js';
import { boundedInt, ToolError, truthy, type Args } from './args.js';
import type { McpServices } from './context.js';
import { addResourceUris } from './files.js';
import { withResourceLinks } from './tool-result.js';

// gobii_get_agent_timeline (remote_mcp.py _tool_get_agent_timeline): the REST timeline's window
// (console/agent_chat/timeline.py fetch_timeline_window) with durable cursors: `after_cursor` reads
// the events strictly newer than it, whatever `direction` says.

export function timelineTool({ state }: McpServices, args: Args) {
  const agent = agentAccess(state, args.agent_id, args);
  const after = args.after_cursor;
  const direction = truthy(after) ? 'newer' : truthy(args.direction) ? args.direction : 'initial';
  if (direction !== 'initial' && direction !== 'older' && direction !== 'newer') throw new ToolError('direction must be one of initial, older, or newer.');
  const limit = boundedInt(args.limit ?? PAGE_LIMITS.timeline.default, 'limit', 1, PAGE_LIMITS.timeline.max);
  const cursor = truthy(after) ? after : truthy(args.cursor) ? args.cursor : null;
  if (cursor !== null && typeof cursor !== 'string') throw new ToolError('cursor/after_cursor must be a string.');
  checkCursor(cursor, 'cursor/after_cursor');
  const window = windowOf(state, agent, cursor, direction, limit);
  addResourceUris(window.events, agent.id);
  const more = direction === 'newer' ? window.has_more_newer : window.has_more_older;
  return withResourceLinks({
    events: window.events,
    next_cursor: window.newest_cursor,
    latest_cursor: window.newest_cursor,
    oldest_cursor: window.oldest_cursor,
    newest_cursor: window.newest_cursor,
    has_more: more,
    has_more_older: window.has_more_older,
    has_more_newer: window.has_more_newer,
    ...processing(state, agent),
  });
}

/** fetch_timeline_window over the agent's events. */
export function windowOf(state: State, agent: PersistentAgentRecord, cursor: string | null, direction: Direction, limit: number) {
  return timelineWindow(agent.events, { direction, cursor: cursor === null ? undefined : cursorSeq(agent, cursor, direction), limit }, state.clock.now());
}

/**
 * The event sequence a cursor stands for. One the emulator wrote names its event; another (the
 * service's own, or one made from a time) is placed by its time, as the service orders events by
 * their microseconds: `newer` starts after the last event at or before it, `older` before the first after it.
 */
function cursorSeq(agent: PersistentAgentRecord, cursor: string, direction: Direction): number | undefined {
  const seq = decodeCursor(cursor);
  if (seq !== undefined) return seq;
  const micros = Number(cursor.slice(0, cursor.indexOf(':')).replace(/_/g, ''));
  if (!Number.isFinite(micros)) return undefined;
  const at = (event: { timestamp: string }) => Date.parse(event.timestamp) * 1000;
  if (direction === 'older') return agent.events.find((event) => at(event) > micros)?.seq ?? Number.MAX_SAFE_INTEGER;
  return agent.events.filter((event) => at(event) <= micros).at(-1)?.seq ?? 0;
}

const CURSOR_KINDS = new Set(['message', 'step', 'thinking', 'kanban', 'plan']);

/** _validate_timeline_cursor: `<integer>:<kind>:<identifier>` with a kind the timeline writes. */
export function checkCursor(cursor: string | null, key: string): void {
  if (!cursor) return;
  const first = cursor.indexOf(':');
  const second = first < 0 ? -1 : cursor.indexOf(':', first + 1);
  const bad = () => new ToolError(`${key} must be a valid Gobii timeline cursor.`);
  if (second < 0) throw bad();
  const value = cursor.slice(0, first);
  const kind = cursor.slice(first + 1, second);
  const identifier = cursor.slice(second + 1);
  if (!/^\s*[-+]?\d+(?:_\d+)*\s*$/.test(value)) throw bad();
  if (!CURSOR_KINDS.has(kind) || identifier === '') throw bad();
}
