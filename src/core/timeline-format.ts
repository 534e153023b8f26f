import type { TimelineEvent } from '../api/schemas/persistent-agent.js';
import { humanCell, shorten } from '../output/format.js';

// One readable line per timeline event. Event fields are camelCase and only loosely specified, so
// every reader here looks in a few likely places and falls back to a generic summary.

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

function pick(source: Fields, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const found = text(source[key]);
    if (found) return found;
  }
  return undefined;
}

/** The object holding an event's own fields: `{kind, message: {...}}` or the event itself. */
function inner(event: Fields, key: string): Fields {
  const nested = event[key];
  return typeof nested === 'object' && nested !== null && !Array.isArray(nested) ? (nested as Fields) : event;
}

function quote(body: string | undefined, max: number | undefined): string {
  if (!body) return '';
  const line = oneLine(body);
  return `"${max === undefined ? line : shorten(line, max)}"`;
}

function describeMessage(event: Fields, max: number | undefined): string {
  const message = inner(event, 'message');
  const direction = pick(message, 'direction') ?? (message.isOutbound === true ? 'outbound' : message.isOutbound === false ? 'inbound' : undefined);
  const channel = pick(message, 'channel');
  const sender = pick(message, 'sender', 'senderAddress', 'from', 'fromAddress');
  const recipient = pick(message, 'recipient', 'recipientAddress', 'to', 'toAddress');
  const body = messageBody(event as TimelineEvent);
  const via = channel ? ` via ${channel}` : '';
  const head =
    direction === 'outbound'
      ? `agent -> ${recipient ?? 'someone'}${via}`
      : `${sender ?? 'someone'} -> agent${via}`;
  const subject = pick(message, 'subject');
  return [head, subject ? `[${subject}]` : '', quote(body, max)].filter(Boolean).join(' ');
}

/** A message event's text (wherever the event keeps it). */
export function messageBody(event: TimelineEvent): string | undefined {
  return pick(inner(event as Fields, 'message'), 'body', 'bodyText', 'text', 'content', 'bodyPreview');
}

function describeSteps(event: Fields): string {
  const list = [event.steps, event.toolCalls, event.entries].find(Array.isArray) as unknown[] | undefined;
  if (!list) return pick(event, 'summary', 'description') ?? 'tool steps';
  const names = list.map((step) => {
    if (typeof step !== 'object' || step === null) return String(step);
    const fields = step as Fields;
    const name = pick(fields, 'toolName', 'tool', 'name', 'title') ?? 'step';
    const status = pick(fields, 'status', 'state');
    return status ? `${name} (${status})` : name;
  });
  return `${list.length} step${list.length === 1 ? '' : 's'}: ${names.join(', ')}`;
}

function describePlan(plan: Fields, max: number | undefined): string {
  const items = [plan.items, plan.steps, plan.tasks].find(Array.isArray) as unknown[] | undefined;
  if (!items) return describeGeneric(plan, max, ['displayText', 'text', 'summary', 'content', 'title']);
  const texts = items.map((entry) => {
    if (typeof entry !== 'object' || entry === null) return String(entry);
    const fields = entry as Fields;
    const label = pick(fields, 'text', 'title', 'description') ?? 'item';
    const status = pick(fields, 'status');
    return status ? `${label} (${status})` : label;
  });
  const title = pick(plan, 'title', 'summary');
  const list = `${items.length} item${items.length === 1 ? '' : 's'}: ${texts.join('; ')}`;
  const line = title ? `${title}, ${list}` : list;
  return max === undefined ? line : shorten(line, max + 20);
}

function describeGeneric(event: Fields, max: number | undefined, keys: string[]): string {
  const body = pick(event, ...keys);
  if (body) return quote(body, max);
  const rest = Object.keys(event).filter((key) => !['kind', 'cursor', 'timestamp'].includes(key));
  return rest.length ? `(${rest.join(', ')})` : '';
}

/** A one-line summary of an event; `max` shortens quoted text (none when piped). */
export function describeEvent(event: TimelineEvent, max?: number): string {
  const fields = event as Fields;
  switch (event.kind) {
    case 'message':
      return describeMessage(fields, max);
    case 'steps':
      return describeSteps(fields);
    case 'thinking':
      return describeGeneric(inner(fields, 'thinking'), max, ['reasoning', 'text', 'content', 'summary']);
    case 'plan':
      return describePlan(inner(fields, 'plan'), max);
    case 'user_action':
      return describeGeneric(inner(fields, 'action'), max, ['description', 'action', 'summary', 'text']);
    default:
      return describeGeneric(fields, max, ['summary', 'text', 'description']);
  }
}

/** When an event happened: its timestamp, or a steps cluster's first entry's (the service gives a cluster none of its own). */
function eventTime(event: TimelineEvent): string {
  return event.timestamp ?? text((event as Fields).earliestTimestamp) ?? '';
}

/** A terminal line: time, kind, summary (text shortened). */
export function timelineLine(event: TimelineEvent, bodyWidth = 100): string {
  return `${humanCell(eventTime(event)).padEnd(17)}  ${event.kind.padEnd(11)}  ${describeEvent(event, bodyWidth)}`;
}

/** A piped line: ISO time, kind and the full summary, tab-separated. */
export function timelinePlainLine(event: TimelineEvent): string {
  return [eventTime(event), event.kind, describeEvent(event)].map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t');
}
