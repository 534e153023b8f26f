import { processing } from '../persistent-routes.js';
import type { PersistentAgentRecord } from '../persistent-state.js';
import { drfTimestamp } from '../timestamps.js';
import type { State } from '../state.js';
import { agentAccess } from './access.js';
import { boundedInt, optionalString, parseUuid, ToolError, truthy, type Args } from './args.js';
import type { McpServices } from './context.js';
import { REDACTED, sanitizeText, sanitizeValue, type Detail } from './sanitize.js';
import type { ToolHandler } from './tool-result.js';
import { windowOf } from './timeline-tool.js';

// gobii_get_agent_debug_trace (remote_mcp.py _tool_get_agent_debug_trace over
// api/services/agent_debug_trace.py build_agent_debug_trace): a bounded, sanitised look at the
// agent: its timeline in the time window, its messages and tool calls as audit events, and
// diagnostics. The emulator keeps no completions or eval runs: those sections are empty.

export const TRACE_TOOLS: Record<string, ToolHandler> = { gobii_get_agent_debug_trace: debugTrace };

const SECTIONS = ['timeline', 'audit_events', 'completions', 'eval_debug_artifacts', 'diagnostics'];
const DETAILS = ['summary', 'standard', 'verbose'];
const MAX_RECENT_MINUTES = 7 * 24 * 60;

interface Bounds {
  since: number | null;
  until: number;
  recentMinutes: number | null;
}

function debugTrace({ state }: McpServices, args: Args) {
  const agent = agentAccess(state, args.agent_id, args);
  const limit = boundedInt(args.limit ?? 20, 'limit', 1, 50);
  const cursor = optionalString(args, 'cursor');
  const detail = args.detail ?? 'standard';
  if (typeof detail !== 'string' || !DETAILS.includes(detail)) throw new ToolError('detail must be one of summary, standard, or verbose.', { field: 'detail', supported_values: DETAILS });
  const recentGiven = 'recent_minutes' in args;
  const recent = recentGiven && args.recent_minutes !== null ? boundedInt(args.recent_minutes, 'recent_minutes', 1, MAX_RECENT_MINUTES) : null;
  const since = optionalString(args, 'since');
  const until = optionalString(args, 'until');
  const evalRun = truthy(args.eval_run_id) ? parseUuid(args.eval_run_id, 'eval_run_id') : null;
  if (cursor && !/^\d+:[a-z_]+:.+$/.test(cursor)) throw new ToolError('cursor must be a valid Gobii audit/debug cursor.', { field: 'cursor' });
  const include = includeOf(args.include);
  const bounds = boundsOf(state, { cursor, recent, recentGiven, since, until });
  return build(state, agent, { limit, cursor, detail: detail as Detail, include, bounds, evalRun });
}

function includeOf(value: unknown): string[] {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return SECTIONS;
  if (!Array.isArray(value)) throw new ToolError('include must be an array of debug sections.', { field: 'include', supported_values: SECTIONS });
  const unsupported = value.filter((item) => typeof item !== 'string' || !SECTIONS.includes(item.trim()));
  if (unsupported.length > 0) throw new ToolError('include contains unsupported debug sections.', { field: 'include', unsupported_values: unsupported, supported_values: SECTIONS });
  return [...new Set(value.map((item: string) => item.trim()))];
}

/** _resolve_bounds: until defaults to now; without since, cursor or an explicit null the last 60 minutes. */
function boundsOf(state: State, given: { cursor: string | null; recent: number | null; recentGiven: boolean; since: string | null; until: string | null }): Bounds {
  if (given.since && given.recentGiven && given.recent !== null) throw new ToolError('Use either since or recent_minutes, not both.', { fields: ['since', 'recent_minutes'] });
  const until = given.until ? parseTime(given.until, 'until') : state.clock.now();
  let since = given.since ? parseTime(given.since, 'since') : null;
  let recent = given.recent;
  if (recent === null && !given.recentGiven && !given.cursor && since === null) recent = 60;
  if (recent !== null) since = until - recent * 60_000;
  if (since !== null && since > until) throw new ToolError('since must be earlier than until.', { fields: ['since', 'until'] });
  if (since !== null && until - since > MAX_RECENT_MINUTES * 60_000) throw new ToolError('Debug trace time windows cannot exceed 7 days.', { fields: ['since', 'until'], maximum_minutes: MAX_RECENT_MINUTES });
  return { since, until, recentMinutes: recent };
}

/** Django's parse_datetime, as near as Date.parse reads ISO 8601 (a time without zone is UTC, the service's zone). */
function parseTime(raw: string, field: string): number {
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(raw) || !raw.includes('T') && !raw.includes(' ') ? raw : `${raw}Z`;
  const time = Date.parse(text.replace(' ', 'T'));
  if (Number.isNaN(time)) throw new ToolError(`${field} must be an ISO8601 datetime string.`, { field });
  return time;
}

interface Options {
  limit: number;
  cursor: string | null;
  detail: Detail;
  include: string[];
  bounds: Bounds;
  evalRun: string | null;
}

function build(state: State, agent: PersistentAgentRecord, options: Options) {
  const { bounds, detail, include, limit } = options;
  const stamp = (time: number | null) => (time === null ? null : drfTimestamp(time));
  const payload: Record<string, unknown> = {
    agent: debugRef(agent),
    scope: { agent_id: agent.id, requested_at: stamp(state.clock.now()), since: stamp(bounds.since), until: stamp(bounds.until), recent_minutes: bounds.recentMinutes, cursor: options.cursor, limit, include, detail, eval_run_id: options.evalRun },
    redaction: {
      mode: 'standard',
      replacement: REDACTED,
      notes: ['Sensitive keys and common credential/token patterns are redacted recursively.', 'Long strings are truncated by detail level.', 'Prompt archives are represented by metadata and IDs only.'],
    },
    warnings: ['Debug traces are sanitized previews. Prompt archive payloads and raw secret-bearing values are not returned.'],
  };
  const inBounds = (timestamp: unknown) => typeof timestamp === 'string' && Date.parse(timestamp) >= (bounds.since ?? -Infinity) && Date.parse(timestamp) <= bounds.until;
  if (include.includes('timeline')) payload.timeline = timelineSection(state, agent, limit, detail, inBounds);
  if (include.includes('audit_events')) {
    const events = auditEvents(agent, detail, inBounds);
    payload.audit_events = events.slice(0, limit);
    payload.audit = { source: 'console.agent_audit.events.fetch_audit_events', has_more: events.length > limit, next_cursor: null, returned: Math.min(limit, events.length) };
  }
  if (include.includes('completions')) payload.completions = { items: [], returned: 0, totals_for_returned: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0, total_cost: '0', credits_cost: '0' } };
  if (include.includes('eval_debug_artifacts')) payload.eval_debug_artifacts = { items: [], returned: 0 };
  if (include.includes('diagnostics')) payload.diagnostics = diagnostics(payload);
  return payload;
}

/** _serialize_agent_debug_ref: its own _iso writes Z. */
function debugRef(agent: PersistentAgentRecord) {
  return {
    id: agent.id,
    name: agent.name,
    is_active: agent.is_active,
    life_state: agent.life_state,
    planning_state: 'skipped',
    schedule: agent.schedule,
    organization_id: null,
    user_id: '42',
    preferred_llm_tier: agent.preferred_llm_tier,
    created_at: agent.created_at,
    updated_at: agent.updated_at,
    last_interaction_at: agent.last_interaction_at,
  };
}

function timelineSection(state: State, agent: PersistentAgentRecord, limit: number, detail: Detail, inBounds: (timestamp: unknown) => boolean) {
  const window = windowOf(state, agent, null, 'initial', limit);
  const events = window.events.flatMap((event) => {
    if (event.kind !== 'steps') return inBounds(event.timestamp) ? [sanitizeValue(event, detail)] : [];
    const entries = (event.entries as Record<string, unknown>[]).filter((entry) => inBounds(entry.timestamp));
    return entries.length === 0 ? [] : [sanitizeValue({ ...event, entries, entryCount: entries.length }, detail)];
  });
  const { processing_active, processing_snapshot } = processing(state, agent);
  return {
    events,
    latest_cursor: window.newest_cursor,
    oldest_cursor: window.oldest_cursor,
    newest_cursor: window.newest_cursor,
    has_more_older: window.has_more_older,
    has_more_newer: window.has_more_newer,
    processing_active,
    processing_snapshot: sanitizeValue(processing_snapshot, detail),
    cursor_note: 'Timeline events are anchored to the requested time bounds; use gobii_get_agent_timeline for full timeline paging.',
  };
}

/** The agent's messages and tool calls, newest first, as _sanitize_audit_event shapes them. */
function auditEvents(agent: PersistentAgentRecord, detail: Detail, inBounds: (timestamp: unknown) => boolean): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const event of [...agent.events].reverse()) {
    if (!inBounds(event.timestamp)) continue;
    if (event.kind === 'message') {
      const message = event.data.message as Record<string, unknown>;
      events.push({
        kind: 'message',
        id: message.id,
        timestamp: event.timestamp,
        is_outbound: message.isOutbound,
        channel: message.channel,
        body_text: sanitizeText(message.bodyText, detail),
        body_html: detail === 'verbose' ? sanitizeText(message.bodyHtml, detail) : null,
        attachments: sanitizeValue(message.attachments ?? [], detail),
        peer_agent: null,
        peer_link_id: null,
        self_agent_name: message.selfAgentName,
      });
    } else if (event.kind === 'steps') {
      for (const entry of event.data.entries as Record<string, unknown>[]) {
        events.push({ kind: 'tool_call', id: entry.id, timestamp: event.timestamp, completion_id: null, tool_name: entry.toolName, parameters: sanitizeValue(entry.parameters, detail), result_summary: sanitizeValue(entry.result, detail), execution_duration_ms: null, prompt_archive: null });
      }
    }
  }
  return events;
}

function diagnostics(payload: Record<string, unknown>) {
  const audit = (payload.audit_events as Record<string, unknown>[] | undefined) ?? [];
  const errors = audit.filter((event) => event.kind === 'error');
  const timeline = (payload.timeline as { processing_active?: boolean; events?: unknown[] } | undefined) ?? {};
  return { processing_active: Boolean(timeline.processing_active), recent_error_count: errors.length, recent_error_samples: errors.slice(0, 5), audit_events_returned: audit.length, timeline_events_returned: timeline.events?.length ?? 0 };
}
