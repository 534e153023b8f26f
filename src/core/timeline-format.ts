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

/** The owner's address on the web channel (web://user/<id>/agent/<id>), the only web sender the service hears. */
const OWNER_WEB = /^web:\/\/user\/[^/]*\/agent\//;

/**
 * A message's sender and recipient. For people (`named`), the owner's web address is "you" and the
 * agent is its name (the service's `selfAgentName`); otherwise the addresses, and "agent".
 */
function speakers(message: Fields, named: boolean): { from: string; to: string } {
  const outbound = pick(message, 'direction') === 'outbound' || message.isOutbound === true;
  const agent = (named && pick(message, 'selfAgentName')) || 'agent';
  const who = (address: string | undefined) => (named && address && OWNER_WEB.test(address) ? 'you' : address ?? 'someone');
  const sender = pick(message, 'sender', 'senderAddress', 'from', 'fromAddress');
  const recipient = pick(message, 'recipient', 'recipientAddress', 'to', 'toAddress');
  // On the web an answer without a recipient goes to the owner, who is the only one heard there.
  if (outbound) return { from: agent, to: named && !recipient && pick(message, 'channel') === 'web' ? 'you' : who(recipient) };
  // The service's MCP send writes as the key's user and names no address (console/agent_chat/timeline.py, is_mcp).
  if (named && !sender && pick(message, 'sourceKind') === 'mcp') return { from: 'you', to: agent };
  return { from: who(sender), to: agent };
}

/** Who wrote a message event, for people: "you" (the owner on the web), the agent's name, or the address. */
export function messageAuthor(event: TimelineEvent): string {
  return speakers(inner(event as Fields, 'message'), true).from;
}

function describeMessage(event: Fields, max: number | undefined, named: boolean): string {
  const message = inner(event, 'message');
  const channel = pick(message, 'channel');
  const { from, to } = speakers(message, named);
  const body = messageBody(event as TimelineEvent);
  const subject = pick(message, 'subject');
  // A conversation between you and the agent on the web reads as one: who said it, then the text.
  const head = named && (channel === 'web' || channel === 'mcp') && (from === 'you' || to === 'you') ? `${from}:` : `${from} -> ${to}${channel ? ` via ${channel}` : ''}`;
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

/**
 * A one-line summary of an event; `max` shortens quoted text (none when piped). `named`: for a person
 * at a terminal, messages say "you" and the agent's name instead of the addresses.
 */
export function describeEvent(event: TimelineEvent, max?: number, named = false): string {
  const fields = event as Fields;
  switch (event.kind) {
    case 'message':
      return describeMessage(fields, max, named);
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

/** Below this width a terminal line shows the time of day alone and a narrower kind: the text needs the room. */
export const NARROW = 60;

/**
 * A terminal line: time, kind, summary (text shortened), who wrote a message by name. On a narrow
 * terminal the time is "09:30" (UTC, as the full "2026-03-01 09:30Z" is) and the kind is not padded
 * as far, so a 40-column terminal keeps most of its width for the text.
 */
export function timelineLine(event: TimelineEvent, width = 100): string {
  const time = humanCell(eventTime(event));
  if (width < NARROW) return `${time.slice(11, 16).padEnd(5)} ${event.kind.padEnd(8)} ${describeEvent(event, width, true)}`;
  return `${time.padEnd(17)}  ${event.kind.padEnd(11)}  ${describeEvent(event, width, true)}`;
}

/** A piped line: ISO time, kind and the full summary, tab-separated. */
export function timelinePlainLine(event: TimelineEvent): string {
  return [eventTime(event), event.kind, describeEvent(event)].map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t');
}
