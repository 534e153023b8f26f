// An agent's debug trace (the service's gobii_get_agent_debug_trace): its bounds checked as the
// service checks them (api/services/agent_debug_trace.py), before a call, errors naming the field.
import { TRACE_DETAILS, TRACE_SECTIONS } from '../contract/enums.js';
import { SERVICE_LIMITS } from '../contract/limits.js';
import { isUuid } from '../contract/validate.js';
import { InputError } from '../errors.js';

export interface TraceQuery {
  /** Items per section, 1..50 (service default 20). */
  limit?: number;
  /** audit.next_cursor of a trace: older debug events. */
  cursor?: string;
  /** The window, in minutes back from `until` (service default 60); null: no time window. Not with `since`. */
  recent_minutes?: number | null;
  /** ISO 8601 bounds of the window (at most 7 days apart). */
  since?: string;
  until?: string;
  /** Which sections (default all). */
  include?: readonly string[];
  detail?: string;
  eval_run_id?: string;
}

/**
 * What django.utils.dateparse.parse_datetime takes: a date, T or a space, a time to the minute or
 * finer, and optionally Z or an offset.
 */
const ISO_DATETIME = /^\d{4}-\d{1,2}-\d{1,2}[T ]\d{1,2}:\d{1,2}(:\d{1,2}([.,]\d{1,6}\d{0,6})?)?\s*(Z|[+-]\d{2}(:?\d{2})?)?$/;

function instant(field: string, value: string): number {
  const time = ISO_DATETIME.test(value.trim()) ? Date.parse(value.trim().replace(' ', 'T').replace(',', '.')) : NaN;
  if (Number.isNaN(time)) throw new InputError(field, `"${value}" is not an ISO 8601 date and time, e.g. 2026-05-01T09:00:00Z`);
  return time;
}

function bounded(field: string, value: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new InputError(field, `must be a whole number from 1 to ${max}, got ${value}`);
  return value;
}

/** The time window's arguments: since or recent_minutes, each bounded; since before until, at most 7 days. */
function windowArguments(query: TraceQuery, args: Record<string, unknown>): void {
  const max = SERVICE_LIMITS.traceMinutes;
  if (query.since !== undefined && query.recent_minutes !== undefined && query.recent_minutes !== null) {
    throw new InputError('since', 'cannot be combined with a recent-minutes window: give one of the two');
  }
  if (query.recent_minutes !== undefined) args.recent_minutes = query.recent_minutes === null ? null : bounded('recent_minutes', query.recent_minutes, max);
  const since = query.since === undefined ? undefined : instant('since', query.since);
  const until = query.until === undefined ? undefined : instant('until', query.until);
  if (since !== undefined && until !== undefined) {
    if (since >= until) throw new InputError('since', 'must be earlier than until');
    if (until - since > max * 60_000) throw new InputError('since', `and until are more than ${max / (24 * 60)} days apart; the service traces at most 7 days`);
  }
  if (query.since !== undefined) args.since = query.since;
  if (query.until !== undefined) args.until = query.until;
}

/** The arguments of gobii_get_agent_debug_trace for this agent and query. */
export function traceArguments(agentId: string, query: TraceQuery = {}): Record<string, unknown> {
  const args: Record<string, unknown> = { agent_id: agentId };
  if (query.limit !== undefined) args.limit = bounded('limit', query.limit, SERVICE_LIMITS.traceLimit);
  if (query.cursor !== undefined) {
    if (query.cursor.trim() === '') throw new InputError('cursor', 'is empty: take audit.next_cursor from a trace');
    args.cursor = query.cursor;
  }
  windowArguments(query, args);
  if (query.include !== undefined) {
    const unknown = query.include.filter((section) => !(TRACE_SECTIONS as readonly string[]).includes(section));
    if (unknown.length > 0) throw new InputError('include', `has no section ${unknown.join(', ')}; the sections are ${TRACE_SECTIONS.join(', ')}`);
    if (query.include.length === 0) throw new InputError('include', `names no section; the sections are ${TRACE_SECTIONS.join(', ')}`);
    args.include = [...new Set(query.include)];
  }
  if (query.detail !== undefined) {
    if (!(TRACE_DETAILS as readonly string[]).includes(query.detail)) throw new InputError('detail', `must be one of ${TRACE_DETAILS.join(', ')}, got "${query.detail}"`);
    args.detail = query.detail;
  }
  if (query.eval_run_id !== undefined) {
    if (!isUuid(query.eval_run_id)) throw new InputError('eval_run_id', `"${query.eval_run_id}" is not a UUID`);
    args.eval_run_id = query.eval_run_id.toLowerCase();
  }
  return args;
}
