import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ForwardCursor, cursorPath } from '../../src/webhooks/forward-cursor.js';
import { planResume } from '../../src/webhooks/resume.js';
import { tempDir } from '../helpers/cli.js';

const A = 'http://127.0.0.1:3000/a';
const B = 'http://127.0.0.1:3000/b';
const stored = (log: string) => JSON.parse(readFileSync(cursorPath(log), 'utf8')).forwarded as Record<string, number>;
const event = (n: number) =>
  `${JSON.stringify({
    received_at: '2026-01-02T03:04:05.000Z',
    headers: { 'user-agent': 'Gobii-AgentWebhook/1.0', 'content-type': 'application/json' },
    body: { id: `3f2b8c1e-5d4a-4c7b-9e2f-${String(n).padStart(12, '0')}`, status: 'completed', agent_id: null, result: n },
  })}\n`;

describe('ForwardCursor', () => {
  it('starts a new target at the end of the log and writes that at once', async () => {
    const log = join(tempDir(), 'events.jsonl');
    const cursor = await ForwardCursor.open(log, [A], 123);
    expect(cursor.offset(A)).toBe(123);
    expect(stored(log)).toEqual({ [A]: 123 });
  });

  it('gathers moves into one atomic write, keeps other targets, and leaves no temporary file', async () => {
    const dir = tempDir();
    const log = join(dir, 'events.jsonl');
    writeFileSync(cursorPath(log), JSON.stringify({ forwarded: { [B]: 7 } }));
    const cursor = await ForwardCursor.open(log, [A], 50, { intervalMs: 10_000 });
    cursor.advance(A, 60);
    cursor.advance(A, 70);
    expect(stored(log)).toEqual({ [B]: 7, [A]: 50 }); // not yet: writes are gathered
    await cursor.flush();
    expect(stored(log)).toEqual({ [B]: 7, [A]: 70 });
    expect(readdirSync(dir).sort()).toEqual(['events.jsonl.forwarded']);
  });

  it('refuses a cursor file that is not JSON, saying how to start over', async () => {
    const log = join(tempDir(), 'events.jsonl');
    writeFileSync(cursorPath(log), '{oops');
    await expect(ForwardCursor.open(log, [A], 0)).rejects.toThrow(/not valid JSON; delete it/);
  });
});

describe('planResume', () => {
  it('gives each target the logged events past its cursor, in log order', async () => {
    const log = join(tempDir(), 'events.jsonl');
    const lines = [event(1), event(2), event(3)];
    writeFileSync(log, lines.join(''));
    writeFileSync(cursorPath(log), JSON.stringify({ forwarded: { [A]: lines[0]!.length, [B]: 0 } }));
    const plan = await planResume(log, lines.join('').length, [A, B]);
    const results = (target: string) => plan.pending.get(target)?.map((item) => JSON.parse(item.body.toString()).result);
    expect(results(A)).toEqual([2, 3]);
    expect(results(B)).toEqual([1, 2, 3]);
    expect(plan.pending.get(A)?.at(-1)?.position).toBe(lines.join('').length);
    expect(plan.bad).toEqual([]);
  });

  it('skips unreadable lines (reported by number) and starts a target whose cursor is past the end at the end', async () => {
    const log = join(tempDir(), 'events.jsonl');
    const text = event(1) + 'torn{\n' + event(2);
    writeFileSync(log, text);
    writeFileSync(cursorPath(log), JSON.stringify({ forwarded: { [A]: 0, [B]: 10_000 } }));
    const plan = await planResume(log, text.length, [A, B]);
    expect(plan.pending.get(A)).toHaveLength(2);
    expect(plan.bad).toEqual([{ line: 2, reason: expect.stringMatching(/not valid JSON/) }]);
    expect(plan.reset).toEqual([B]);
    expect(plan.pending.get(B)).toEqual([]);
    await plan.cursor.flush();
    expect(stored(log)[B]).toBe(text.length);
  });
});
