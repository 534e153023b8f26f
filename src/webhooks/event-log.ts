// Reading back an `--output` log: one `{received_at, headers, body}` object per line, as the
// listener appends them. Used to resume forwarding after a stop, and by `webhook-listen replay`.
import { createReadStream } from 'node:fs';
import type { ForwardItem } from './forwarder.js';
import type { EventRecord } from './listener.js';
import { checkPayload } from './payload.js';

export interface LoggedEvent {
  /** 1-based line number in the log. */
  line: number;
  /** Byte offset just past the line (the forward cursor's unit). */
  end: number;
  record: EventRecord;
  /** The body's JSON as it came (see eventLine); re-posted as it is. */
  body: string;
}

/**
 * An event's line in the log: its record, the body last and as the service sent it, not parsed and
 * written again (which would turn 1.0 into 1 and round integers beyond 2^53). JSON puts no raw line
 * break inside a string, so the body's own line breaks are whitespace and become spaces.
 */
export function eventLine(record: EventRecord, raw: Buffer): string {
  return `${lineStart(record)}${raw.toString('utf8').trim().replace(/[\r\n]+/g, ' ')}}`;
}

/** What precedes the body in an event's line. */
function lineStart({ received_at, headers }: EventRecord): string {
  return `${JSON.stringify({ received_at, headers }).slice(0, -1)},"body":`;
}

/** The body's text in a line eventLine wrote; for any other line (written by hand, keys after the body), the body written anew. */
function bodyText(line: string, record: EventRecord): string {
  const start = lineStart(record);
  if (line.startsWith(start) && line.endsWith('}')) {
    const text = line.slice(start.length, -1);
    try {
      JSON.parse(text); // only the body's value parses alone (`{...},"more":1` does not)
      return text;
    } catch {
      // fall through
    }
  }
  return JSON.stringify(record.body);
}

export interface BadLine {
  line: number;
  reason: string;
  /** The last line, without its newline and not JSON: being written right now, or cut short by a crash. */
  incomplete?: boolean;
}

export interface LogRead {
  events: LoggedEvent[];
  bad: BadLine[];
  /** Bytes read: the offset where the next line would start. */
  size: number;
}

export interface ReadLogOptions {
  /** Check and return only lines starting at or after this byte offset (line numbers still count from the top). */
  from?: number;
  /** Read no further than this offset (e.g. the log's length before new events are appended). */
  to?: number;
}

/** Checks one parsed line: the listener's record shape, with a body the listener would accept. */
export function checkRecord(value: unknown): { ok: true; record: EventRecord } | { ok: false; reason: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  const record = value as Record<string, unknown>;
  if (typeof record.received_at !== 'string' || Number.isNaN(Date.parse(record.received_at))) {
    return { ok: false, reason: '"received_at" must be an ISO date string' };
  }
  const headers = record.headers as Record<string, unknown> | undefined;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return { ok: false, reason: '"headers" must be an object' };
  for (const name of ['user-agent', 'content-type']) {
    const header = headers[name];
    if (header !== undefined && header !== null && typeof header !== 'string') return { ok: false, reason: `"headers.${name}" must be a string or null` };
  }
  if (!('body' in record)) return { ok: false, reason: 'missing "body"' };
  const body = checkPayload(record.body);
  if (!body.ok) return { ok: false, reason: `"body": ${body.reason}` };
  return { ok: true, record: record as unknown as EventRecord };
}

/** Reads the log line by line, keeping each line's number and where it ends. */
export async function readEventLog(path: string, options: ReadLogOptions = {}): Promise<LogRead> {
  const from = options.from ?? 0;
  const events: LoggedEvent[] = [];
  const bad: BadLine[] = [];
  let line = 0;
  let offset = 0;
  /** The last line read, if it was ended but is not JSON (a torn line an older agentctl ended with a line break). */
  let lastUnparsable: BadLine | undefined;
  const take = (bytes: Buffer, terminated: boolean) => {
    line++;
    const start = offset;
    offset += bytes.length + (terminated ? 1 : 0);
    if (start < from) return;
    const text = bytes.toString('utf8').trim();
    if (text === '') return;
    lastUnparsable = undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (terminated) bad.push((lastUnparsable = { line, reason: `not valid JSON (${(error as Error).message})` }));
      else bad.push({ line, reason: 'an incomplete last line (being written, or cut short by a crash: never acknowledged)', incomplete: true });
      return;
    }
    const check = checkRecord(value);
    if (check.ok) events.push({ line, end: offset, record: check.record, body: bodyText(text, check.record) });
    else bad.push({ line, reason: check.reason });
  };
  if (options.to === 0) return { events, bad, size: 0 };
  let carry: Buffer = Buffer.alloc(0);
  const stream = createReadStream(path, options.to === undefined ? {} : { end: options.to - 1 });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let newline: number;
    while ((newline = data.indexOf(0x0a)) !== -1) {
      take(data.subarray(0, newline), true);
      data = data.subarray(newline + 1);
    }
    carry = Buffer.from(data);
  }
  if (carry.length > 0) take(carry, false);
  // Only the listener's last write can be torn: an unparsable last line is one, never acknowledged.
  if (lastUnparsable) Object.assign(lastUnparsable, { reason: 'a torn last line (cut short by a crash: never acknowledged)', incomplete: true });
  return { events, bad, size: offset };
}

/** The event as it will be re-posted from the log: its stored body, content type and user agent. */
export function loggedForwardItem(event: LoggedEvent): ForwardItem {
  const { record } = event;
  return {
    body: Buffer.from(event.body),
    contentType: record.headers['content-type'] ?? 'application/json',
    userAgent: record.headers['user-agent'] ?? undefined,
    label: record.body.id,
    position: event.end,
  };
}
