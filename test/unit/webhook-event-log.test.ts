import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRecord, eventLine, loggedForwardItem, readEventLog } from '../../src/webhooks/event-log.js';
import type { EventRecord } from '../../src/webhooks/listener.js';
import { tempDir } from '../helpers/cli.js';

const id = (n: number) => `3f2b8c1e-5d4a-4c7b-9e2f-${n.toString(16).padStart(12, '0')}`;
const record = (n: number, extra: Record<string, unknown> = {}) => ({
  received_at: `2026-01-02T03:04:0${n % 10}.000Z`,
  headers: { 'user-agent': 'Gobii-AgentWebhook/1.0', 'content-type': 'application/json' },
  body: { id: id(n), status: 'completed', agent_id: null, result: `r${n}` },
  ...extra,
});
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('readEventLog', () => {
  it('returns each event with its line number and the offset just past it', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const text = line(record(1)) + '\n' + line(record(2));
    writeFileSync(path, text);
    const log = await readEventLog(path);
    expect(log.bad).toEqual([]);
    expect(log.events.map((event) => [event.line, event.end, event.record.body.id])).toEqual([
      [1, line(record(1)).length, id(1)],
      [3, text.length, id(2)],
    ]);
    expect(log.size).toBe(text.length);
  });

  it('reports lines that are not events with their line numbers, an unfinished last line included', async () => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(path, [line(record(1)), 'not json\n', line({ earlier: true }), line(record(2, { body: { id: 'x' } })), '{"received_at":'].join(''));
    const log = await readEventLog(path);
    expect(log.events.map((event) => event.line)).toEqual([1]);
    expect(log.bad).toEqual([
      { line: 2, reason: expect.stringMatching(/^not valid JSON/) },
      { line: 3, reason: '"received_at" must be an ISO date string' },
      { line: 4, reason: '"body": "id" must be a UUID string, got the string "x"' },
      { line: 5, reason: expect.stringMatching(/incomplete last line/), incomplete: true },
    ]);
  });

  it('checks only from a byte offset (line numbers still count from the top) and up to a limit', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const first = 'garbage before the cursor\n';
    writeFileSync(path, first + line(record(1)) + line(record(2)) + line(record(3)));
    const limit = first.length + line(record(1)).length * 2;
    const log = await readEventLog(path, { from: first.length, to: limit });
    expect(log.bad).toEqual([]);
    expect(log.events.map((event) => event.line)).toEqual([2, 3]);
    expect(log.size).toBe(limit);
  });

  it('re-posts a logged event with its stored body, content type and user agent', async () => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(path, line(record(7)));
    const [event] = (await readEventLog(path)).events;
    const item = loggedForwardItem(event!);
    expect(JSON.parse(item.body.toString())).toEqual(record(7).body);
    expect(item).toMatchObject({ contentType: 'application/json', userAgent: 'Gobii-AgentWebhook/1.0', label: id(7), position: line(record(7)).length });
  });

  it('keeps a body as it came: 1.0 and integers beyond 2^53 are re-posted unchanged, line breaks inside become spaces', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const raw = `{"id": "${id(8)}", "status": "completed", "agent_id": null,\n "result": {"price": 1.0, "big": 12345678901234567890}}`;
    const stored = record(8) as never as EventRecord;
    writeFileSync(path, `${eventLine({ ...stored, body: JSON.parse(raw) }, Buffer.from(raw))}\n`);
    const [event] = (await readEventLog(path)).events;
    expect(loggedForwardItem(event!).body.toString()).toBe(raw.replace('\n', ' '));
    // A line with keys after the body (written by hand) re-posts the body alone.
    writeFileSync(path, line({ ...record(9), note: 'added later' }));
    const [edited] = (await readEventLog(path)).events;
    expect(JSON.parse(loggedForwardItem(edited!).body.toString())).toEqual(record(9).body);
  });

  it('checkRecord wants the listener\'s shape', () => {
    expect(checkRecord(record(1)).ok).toBe(true);
    expect(checkRecord([])).toEqual({ ok: false, reason: 'not a JSON object' });
    expect(checkRecord({ ...record(1), headers: null })).toEqual({ ok: false, reason: '"headers" must be an object' });
    expect(checkRecord({ ...record(1), headers: { 'user-agent': 5 } })).toEqual({ ok: false, reason: '"headers.user-agent" must be a string or null' });
    expect(checkRecord({ received_at: record(1).received_at, headers: {} })).toEqual({ ok: false, reason: 'missing "body"' });
  });
});
