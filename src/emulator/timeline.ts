import { HttpError } from './http.js';

// An agent's timeline: events ascending in time, each `{kind, cursor, timestamp, ...}` with camelCase
// fields inside, and the cursor paging of GET /agents/{id}/timeline/.

export type EventKind = 'message' | 'steps' | 'thinking' | 'plan' | 'user_action';

export interface TimelineEvent {
  /** Emulator-wide creation sequence: orders events and is what a cursor encodes. */
  seq: number;
  kind: EventKind;
  timestamp: string;
  /** The kind-specific fields, already camelCase. */
  data: Record<string, unknown>;
}

export interface MessageFields {
  id: string;
  direction: 'inbound' | 'outbound';
  channel: string;
  sender: string;
  recipient: string | null;
  subject: string | null;
  body: string;
  metadata?: Record<string, unknown>;
}

export interface Step {
  toolName: string;
  status: string;
  summary: string;
  taskId?: string;
}

export const DIRECTIONS = ['initial', 'older', 'newer'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Cursors are opaque: base64url of `evt:<seq>`. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`evt:${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^evt:(\d{1,15})$/.exec(text);
  if (!match || encodeCursor(Number(match[1])) !== cursor) return undefined;
  return Number(match[1]);
}

export function eventBody(event: TimelineEvent): Record<string, unknown> {
  return { kind: event.kind, cursor: encodeCursor(event.seq), timestamp: event.timestamp, ...event.data };
}

export function messageData(message: MessageFields): Record<string, unknown> {
  const chars = [...message.body];
  const bodyPreview = chars.length > 120 ? `${chars.slice(0, 119).join('')}…` : message.body;
  return { message: { ...message, bodyPreview } };
}

export function stepsData(steps: Step[]): Record<string, unknown> {
  return { steps };
}

/** What a new agent with a charter starts its timeline with: a thought, then a plan of the charter's sentences. */
export function seedEvents(charter: string): { kind: EventKind; data: Record<string, unknown> }[] {
  const sentences = charter
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '')
    .slice(0, 5);
  if (sentences.length === 0) return [];
  return [
    { kind: 'thinking', data: { text: `Reading my charter and planning how to work on it (${sentences.length} objective${sentences.length === 1 ? '' : 's'}).` } },
    { kind: 'plan', data: { plan: { title: 'Charter', items: sentences.map((text) => ({ text, status: 'pending' })) } } },
  ];
}

export interface TimelineQuery {
  direction: Direction;
  cursor?: number;
  limit: number;
}

/** The window of `events` (ascending) a query selects, with the cursors and has-more flags of the answer. */
export function timelineWindow(events: TimelineEvent[], query: TimelineQuery) {
  let start: number;
  let end: number;
  if (query.direction === 'initial' || query.cursor === undefined) {
    end = events.length;
    start = Math.max(0, end - query.limit);
  } else if (query.direction === 'older') {
    const cursor = query.cursor;
    end = countWhile(events, (event) => event.seq < cursor);
    start = Math.max(0, end - query.limit);
  } else {
    const cursor = query.cursor;
    start = countWhile(events, (event) => event.seq <= cursor);
    end = Math.min(events.length, start + query.limit);
  }
  const window = events.slice(start, end);
  const first = window[0];
  const last = window[window.length - 1];
  return {
    events: window.map(eventBody),
    oldest_cursor: first ? encodeCursor(first.seq) : null,
    newest_cursor: last ? encodeCursor(last.seq) : null,
    has_more_older: start > 0,
    has_more_newer: end < events.length,
  };
}

function countWhile(events: TimelineEvent[], test: (event: TimelineEvent) => boolean): number {
  let count = 0;
  while (count < events.length && test(events[count] as TimelineEvent)) count++;
  return count;
}

/** Reads direction, cursor and limit from the query string; 400 field errors as the service gives. */
export function parseTimelineQuery(params: URLSearchParams): TimelineQuery {
  const errors: Record<string, string[]> = {};
  const direction = params.get('direction') ?? 'initial';
  if (!(DIRECTIONS as readonly string[]).includes(direction)) errors.direction = [`"${direction}" is not a valid choice.`];
  const limit = parseLimit(params.get('limit'), 40, 100);
  if (typeof limit === 'string') errors.limit = [limit];
  const rawCursor = params.get('cursor');
  let cursor: number | undefined;
  if (rawCursor !== null && rawCursor !== '') {
    cursor = decodeCursor(rawCursor);
    if (cursor === undefined) errors.cursor = ['Invalid cursor.'];
  } else if (direction === 'older' || direction === 'newer') {
    errors.cursor = [`A cursor is required with direction ${direction}.`];
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return { direction: direction as Direction, cursor, limit: limit as number };
}

/** An integer query parameter in 1..max, or the message of the 400 it gets. */
export function parseLimit(raw: string | null, fallback: number, max: number): number | string {
  if (raw === null || raw === '') return fallback;
  if (!/^\s*-?\d+\s*$/.test(raw)) return 'A valid integer is required.';
  const value = Number(raw);
  if (value < 1) return 'Ensure this value is greater than or equal to 1.';
  if (value > max) return `Ensure this value is less than or equal to ${max}.`;
  return value;
}
