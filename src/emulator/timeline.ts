import { PAGE_LIMITS, clampLimit } from '../contract/limits.js';
import { TIMELINE_DIRECTIONS } from '../contract/enums.js';
import { HttpError } from './http.js';
import { naturalTime } from './timestamps.js';
import { USER_EMAIL } from './user.js';

// An agent's timeline: events ascending in time, each `{kind, cursor, timestamp, ...}` with the
// service's camelCase fields inside, and the cursor paging of GET /agents/{id}/timeline/.

export type EventKind = 'message' | 'steps' | 'thinking' | 'plan' | 'user_action';

export interface TimelineEvent {
  /** Emulator-wide creation sequence: orders events and identifies them in a cursor. */
  seq: number;
  kind: EventKind;
  timestamp: string;
  /** The kind-specific fields, in the service's shape. */
  data: Record<string, unknown>;
}

/** A message as the emulator routes it (the event shows the service's subset of these). */
export interface MessageFields {
  id: string;
  isOutbound: boolean;
  channel: string;
  /** The sending address (the agent's own address for an outbound reply). */
  sender: string;
  recipient: string | null;
  subject: string | null;
  body: string;
  /** The message this one answers (an agent's reply names the inbound message). */
  inReplyTo?: string;
  /** Where a message the API did not make came from (the inbound webhook, the remote MCP endpoint). */
  source?: MessageSource;
  /** The timeline's attachment entries (_serialize_attachment), for a message that has some. */
  attachments?: Record<string, unknown>[];
}

export interface Step {
  toolName: string;
  /** A tool call's status (PersistentAgentToolCall.Status); queued ones are not shown (_serialize_step_entry). */
  status: 'pending' | 'complete' | 'error';
  caption: string;
  parameters: Record<string, unknown>;
  result: string;
}

export type Direction = (typeof TIMELINE_DIRECTIONS)[number];

/** The kind a cursor names (console/agent_chat/timeline.py, the _envelop_* functions). */
const CURSOR_KINDS: Record<EventKind, string> = { message: 'message', steps: 'step', thinking: 'thinking', plan: 'plan', user_action: 'user_action' };

/** Cursors as the service writes them: `<microseconds since epoch>:<kind>:<identifier>`. */
export function encodeCursor(event: Pick<TimelineEvent, 'seq' | 'kind' | 'timestamp'>): string {
  return `${Date.parse(event.timestamp) * 1000}:${CURSOR_KINDS[event.kind]}:${event.seq}`;
}

/** The event sequence a cursor names; undefined for one the emulator did not write (the service then ignores it). */
export function decodeCursor(cursor: string): number | undefined {
  const match = /^\d{1,20}:[a-z_]{1,20}:(\d{1,15})$/.exec(cursor);
  return match ? Number(match[1]) : undefined;
}

/** Where a message came from, as its raw_payload says (api/webhooks.py inbound_agent_webhook; remote_mcp.py through inject_internal_web_message). */
export interface MessageSource {
  /** webhook: the inbound webhook; mcp: the remote MCP endpoint (raw_payload source_kind "mcp"). */
  kind: 'webhook' | 'mcp';
  label: string;
  /** get_webhook_timeline_metadata's fields: contentType, method, path, queryParams, payloadKind, payload (webhooks only). */
  meta?: Record<string, unknown>;
}

/**
 * The kind-specific fields of a message event, as console/agent_chat/timeline.py _serialize_message
 * writes a message create_message stored: addresses are the endpoints' (PersistentAgentCommsEndpoint.
 * normalize_address: stripped, lower-cased); no subject (the API's raw_payload holds none, and
 * _message_subject reads only that); senderName the web user's display name (the account's e-mail:
 * _build_user_display_name), a webhook's name (its source_label), else the sender's address; a new
 * message's latest_status is "queued". `relativeTimestamp` is written when the event is sent (eventBody).
 */
export function messageData(message: MessageFields, agentName: string, cursor: string, timestamp: string): Record<string, unknown> {
  // A remote MCP message is a web message the timeline shows on channel "mcp", with no sender
  // address or user (_serialize_message's is_mcp).
  const mcp = message.source?.kind === 'mcp';
  const webUser = message.channel === 'web' && !message.isOutbound && !mcp;
  const email = message.channel === 'email';
  const senderAddress = normalizeAddress(message.sender);
  const senderName = message.source?.label ?? (webUser ? USER_EMAIL : senderAddress);
  // Every key the service's message serializer sends, in its order (those the emulator has no data for are null or empty).
  return {
    message: {
      id: message.id,
      inReplyToMessageId: message.inReplyTo ?? null,
      cursor,
      bodyHtml: email ? `<p>${escapeHtml(message.body).replace(/\n/g, '<br>')}</p>` : '',
      bodyText: message.body,
      // An outbound e-mail's raw_payload carries its subject; an inbound API message's none.
      subject: email && message.isOutbound ? message.subject : null,
      isOutbound: message.isOutbound,
      channel: mcp ? 'mcp' : message.channel,
      attachments: message.attachments ?? [],
      timestamp,
      relativeTimestamp: 'now',
      isPeer: false,
      peerAgent: null,
      peerLinkId: null,
      selfAgentName: agentName,
      senderUserId: webUser ? 42 : null,
      senderName,
      senderAddress: mcp ? null : senderAddress,
      recipientName: null,
      recipientAddress: email && message.recipient !== null ? normalizeAddress(message.recipient) : null,
      replyTo: null,
      ccAddresses: [],
      bccAddresses: [],
      sourceKind: message.source?.kind ?? null,
      sourceLabel: message.source?.label ?? null,
      channelLabel: null,
      webhookMeta: message.source?.meta ?? null,
      structuredPayload: null,
      viewerFeedback: null,
      deliveryStatus: 'queued',
      outboxReview: null,
    },
  };
}

/** PersistentAgentCommsEndpoint.normalize_address (api/models.py). */
const normalizeAddress = (address: string) => address.trim().toLowerCase();

/** A steps event: one cluster of tool calls (_build_cluster: no `timestamp` of its own, only its entries'). */
export function stepsData(steps: Step[], seq: number, cursor: string, timestamp: string): Record<string, unknown> {
  return {
    entryCount: steps.length,
    collapsible: steps.length >= 3,
    collapseThreshold: 3,
    earliestTimestamp: timestamp,
    latestTimestamp: timestamp,
    entries: steps.map((step, index) => ({
      id: uuidFromSeq(seq, index),
      cursor,
      timestamp,
      caption: step.caption,
      toolName: step.toolName,
      meta: { label: step.toolName.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()) },
      parameters: step.parameters,
      result: step.result,
      status: step.status,
    })),
  };
}

/**
 * What a new charter starts the timeline with: a thought, then a plan event adding the charter's
 * sentences (at most five) as steps to do, in the shape of serialize_plan_event.
 */
export function seedEvents(charter: string, agentName: string): { kind: EventKind; data: (seq: number) => Record<string, unknown> }[] {
  const sentences = charter
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '')
    .slice(0, 5);
  if (sentences.length === 0) return [];
  return [
    {
      kind: 'thinking',
      data: (seq) => ({
        reasoning: `Reading my charter and planning how to work on it (${sentences.length} objective${sentences.length === 1 ? '' : 's'}).`,
        completionId: uuidFromSeq(seq, 0),
      }),
    },
    { kind: 'plan', data: (seq) => planData(agentName, sentences, seq) },
  ];
}

/** A plan event whose every change adds a step to do: its display text and counts as serialize_plan_event words them. */
function planData(agentName: string, titles: string[], seq: number): Record<string, unknown> {
  return {
    agentName,
    displayText: titles.length === 1 ? `${agentName} added "${titles[0] as string}"` : `${agentName} added ${titles.length} steps`,
    primaryAction: 'created',
    changes: titles.map((title, index) => ({ stepId: uuidFromSeq(seq, index + 1), title, action: 'created', fromStatus: null, toStatus: 'todo' })),
    snapshot: { todoCount: titles.length, doingCount: 0, doneCount: 0, todoTitles: [...titles], doingTitles: [], doneTitles: [], files: [], messages: [] },
  };
}

/**
 * An event as the timeline sends it; a steps cluster has no timestamp of its own. A message's
 * relativeTimestamp is naturaltime's of its time at `nowMs` (timeline.py _relative_timestamp).
 */
export function eventBody(event: TimelineEvent, nowMs: number): Record<string, unknown> {
  if (event.kind === 'steps') return { kind: event.kind, cursor: encodeCursor(event), ...event.data };
  const message = event.kind === 'message' ? (event.data.message as Record<string, unknown>) : undefined;
  const data = message ? { message: { ...message, relativeTimestamp: naturalTime(Date.parse(event.timestamp), nowMs) } } : event.data;
  return { kind: event.kind, cursor: encodeCursor(event), timestamp: event.timestamp, ...data };
}

export interface TimelineQuery {
  direction: Direction;
  cursor?: number;
  limit: number;
}

/**
 * The window of `events` (ascending) a query selects, as the service computes it: `initial` (or no
 * usable cursor with `older`) is the newest `limit` events; `newer` without a cursor the oldest.
 */
export function timelineWindow(events: TimelineEvent[], query: TimelineQuery, nowMs: number) {
  const { direction, cursor, limit } = query;
  const filtered =
    cursor === undefined || direction === 'initial' ? events : events.filter((event) => (direction === 'older' ? event.seq < cursor : event.seq > cursor));
  const window = direction === 'newer' ? filtered.slice(0, limit) : filtered.slice(Math.max(0, filtered.length - limit));
  const first = window[0];
  const last = window[window.length - 1];
  const hasMoreOlder = first !== undefined && (direction !== 'initial' || filtered.length >= limit) && events[0] !== first;
  const hasMoreNewer = direction !== 'initial' && last !== undefined && events[events.length - 1] !== last;
  return {
    events: window.map((event) => eventBody(event, nowMs)),
    oldest_cursor: first ? encodeCursor(first) : null,
    newest_cursor: last ? encodeCursor(last) : null,
    has_more_older: hasMoreOlder,
    has_more_newer: hasMoreNewer,
  };
}

/** Reads direction, cursor and limit from the query string: limit clamped to 1..100, an unusable cursor ignored. */
export function parseTimelineQuery(params: URLSearchParams): TimelineQuery {
  const direction = (params.get('direction') || 'initial').toLowerCase();
  if (!(TIMELINE_DIRECTIONS as readonly string[]).includes(direction)) throw new HttpError(400, { direction: ['Invalid direction parameter.'] });
  // The service reads `limit` with Python's int(): given but empty is an error here (not in web-tasks).
  const limit = parseLimit(params.get('limit') ?? String(PAGE_LIMITS.timeline.default), PAGE_LIMITS.timeline.max);
  const rawCursor = params.get('cursor');
  return { direction: direction as Direction, cursor: rawCursor ? decodeCursor(rawCursor) : undefined, limit };
}

/** An integer query parameter as Python's int() reads it, clamped to 1..max; 400 `{"limit": [...]}` otherwise. */
export function parseLimit(raw: string, max: number): number {
  if (!/^\s*[-+]?\d+(?:_\d+)*\s*$/.test(raw)) throw new HttpError(400, { limit: ['limit must be an integer'] });
  return clampLimit(Number(raw.replace(/_/g, '')), max);
}

/** A stable UUID-shaped id for the n-th part of event `seq` (ids the emulator needs no record for). */
function uuidFromSeq(seq: number, n: number): string {
  const hex = seq.toString(16).padStart(12, '0').slice(-12);
  return `00000000-0000-4000-8${n.toString(16).padStart(3, '0').slice(-3)}-${hex}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}
