// `webhook-listen replay LOG`, run in-process through main(argv, io) against a local target.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentctl, tempDir } from '../helpers/cli.js';

const id = (n: number) => `3f2b8c1e-5d4a-4c7b-9e2f-${n.toString(16).padStart(12, '0')}`;
const TASK = id(2);

/** A stored record as `webhook-listen --output` writes it. */
function record(n: number, receivedAt: string, body: Record<string, unknown> = {}) {
  return {
    received_at: receivedAt,
    headers: { 'user-agent': 'Gobii-AgentWebhook/1.0', 'content-type': 'application/json; charset=utf-8' },
    body: { id: id(n), status: 'completed', agent_id: null, result: `result ${n}`, ...body },
  };
}

const RECORDS = [
  record(1, '2026-01-02T08:00:00.000Z'),
  record(2, '2026-01-02T09:00:00.000Z', { status: 'failed', result: null, error_message: 'site down' }),
  record(3, '2026-01-02T10:00:00.000Z'),
  record(2, '2026-01-02T11:00:00.000Z', { result: 'second try' }),
];

function writeLog(lines: unknown[] = RECORDS): string {
  const path = join(tempDir(), 'events.jsonl');
  writeFileSync(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return path;
}

interface Received {
  body: unknown;
  type?: string;
  ua?: string;
}

let target: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (target ? (target.closeAllConnections(), target.close(() => resolve())) : resolve())));

/** A forward target answering with `answer(n)` for the n-th request (0-based). */
async function startTarget(answer: (n: number) => number | [number, Record<string, string>] = () => 204) {
  const received: Received[] = [];
  let requests = 0;
  target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = answer(requests++);
      const [status, headers] = Array.isArray(reply) ? reply : [reply, {}];
      if (status < 300) received.push({ body: JSON.parse(Buffer.concat(chunks).toString()), type: req.headers['content-type'], ua: req.headers['user-agent'] });
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => target?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`, received, requests: () => requests };
}

describe('webhook-listen replay: listing', () => {
  it('prints the stored records: --jsonl one per line, --json one array, tab-separated rows when piped', async () => {
    const log = writeLog();
    const jsonl = await agentctl(['webhook-listen', 'replay', log, '--jsonl']);
    expect(jsonl.exitCode).toBe(0);
    expect(jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(RECORDS);
    const json = await agentctl(['webhook-listen', 'replay', log, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(RECORDS);
    const plain = await agentctl(['webhook-listen', 'replay', log]);
    expect(plain.stdout.split('\n')[1]).toBe(`2026-01-02T09:00:00.000Z\t${TASK}\tfailed\t\tsite down\tGobii-AgentWebhook/1.0`);
  });

  it('shows a table on a terminal', async () => {
    const result = await agentctl(['webhook-listen', 'replay', writeLog(), '--no-color'], { terminal: { stdoutIsTTY: true, columns: 160 } });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^RECEIVED\s+TASK\s+STATUS\s+AGENT\s+RESULT \/ ERROR\s+USER AGENT$/);
    expect(lines).toHaveLength(5);
    expect(lines[2]).toContain('site down');
  });

  it('--task and --since select events (an ISO time, or a duration before now)', async () => {
    const log = writeLog();
    const ids = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line).received_at);
    const task = await agentctl(['webhook-listen', 'replay', log, '--task', TASK.toUpperCase(), '--jsonl']);
    expect(ids(task.stdout)).toEqual(['2026-01-02T09:00:00.000Z', '2026-01-02T11:00:00.000Z']);
    const since = await agentctl(['webhook-listen', 'replay', log, '--since', '2026-01-02T10:00:00Z', '--jsonl']);
    expect(ids(since.stdout)).toEqual(['2026-01-02T10:00:00.000Z', '2026-01-02T11:00:00.000Z']);
    const clock = { now: () => Date.parse('2026-01-02T11:30:00Z'), sleep: async () => undefined };
    const ago = await agentctl(['webhook-listen', 'replay', log, '--since', '2h', '--task', TASK, '--jsonl'], { clock });
    expect(ids(ago.stdout)).toEqual(['2026-01-02T11:00:00.000Z']);
    const none = await agentctl(['webhook-listen', 'replay', log, '--since', '1m', '--jsonl'], { clock });
    expect(none).toMatchObject({ exitCode: 0, stdout: '' });
    expect(none.stderr).toContain('No events in');
  });
});

describe('webhook-listen replay --forward-to', () => {
  it('posts every selected event in log order with its stored content type and user agent', async () => {
    const sink = await startTarget();
    const result = await agentctl(['webhook-listen', 'replay', writeLog(), '--forward-to', sink.url]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(sink.received.map((r) => r.body)).toEqual(RECORDS.map((r) => r.body));
    expect(sink.received[0]).toMatchObject({ type: 'application/json; charset=utf-8', ua: 'Gobii-AgentWebhook/1.0' });
    expect(result.stderr).toContain(`Replaying 4 event(s) from`);
    expect(result.stderr).toContain(`Forwarded 4 of 4 to ${sink.url}.`);
  });

  it('retries what the target fails (honouring Retry-After): each event arrives once; those sent behind it may come first', async () => {
    const sink = await startTarget((n) => (n === 0 ? [503, { 'retry-after': '0' }] : n === 2 ? 500 : 204));
    const result = await agentctl(['webhook-listen', 'replay', writeLog(), '--forward-to', sink.url]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/forwarding to \S+ failed \(answered 503\); retrying with backoff/);
    const ids = sink.received.map((r) => (r.body as { result: unknown }).result);
    expect([...ids].sort()).toEqual(RECORDS.map((r) => r.body.result).sort());
    // Events 1 and 3 were refused while the others were already on their way; retries go earliest first.
    expect(ids.slice(-2)).toEqual(['result 1', 'result 3']);
  });

  it('exits 1 when the target refuses an event for good (4xx), after sending the rest', async () => {
    const sink = await startTarget((n) => (n === 1 ? 422 : 204));
    const result = await agentctl(['webhook-listen', 'replay', writeLog(), '--forward-to', sink.url]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`answered 422 for the event of task ${TASK}; not retried`);
    expect(result.stderr).toContain(`Forwarded 3 of 4 to ${sink.url}, 1 refused by it.`);
    expect(sink.received).toHaveLength(3);
  });

  it('exits 8 at --timeout with a target that stays down, and prints the command that resends the rest', async () => {
    const sink = await startTarget((n) => (n < 2 ? 204 : 503));
    const log = writeLog();
    const result = await agentctl(['webhook-listen', 'replay', log, '--forward-to', sink.url, '--timeout', '0.5']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain(`Forwarded 2 of 4 to ${sink.url}, 2 not delivered.`);
    expect(result.stderr).toContain(`To resend the rest: agentctl webhook-listen replay ${log} --forward-to ${sink.url} --since 2026-01-02T10:00:00.000Z`);
    expect(result.stderr).toMatch(/gave up after 0.5s/);
  });

  it('Ctrl-C stops with a summary and exit 130', async () => {
    const sink = await startTarget(() => 503);
    const interrupt = new AbortController();
    const running = agentctl(['webhook-listen', 'replay', writeLog(), '--forward-to', sink.url], { signal: interrupt.signal });
    while (sink.requests() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    interrupt.abort();
    const result = await running;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain(`Forwarded 0 of 4 to ${sink.url}, 4 not delivered.`);
  });
});

describe('webhook-listen replay: bad input is refused before anything is sent', () => {
  it('lists the lines that are not stored events, with their numbers, and sends nothing', async () => {
    const sink = await startTarget();
    const log = writeLog([RECORDS[0], 'not json', { earlier: true }, RECORDS[1], '{"received_at":"2026-01-02T09:00:00Z","headers":{},"body":{"id":"x"}}']);
    const result = await agentctl(['webhook-listen', 'replay', log, '--forward-to', sink.url]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${log} has 3 line(s) that are not stored events; nothing was sent:`);
    expect(result.stderr).toContain(`${log}:2: not valid JSON`);
    expect(result.stderr).toContain(`${log}:3: "received_at" must be an ISO date string`);
    expect(result.stderr).toContain(`${log}:5: "body": "id" must be a UUID string`);
    expect(sink.requests()).toBe(0);
  });

  it('skips, with a warning, an unfinished last line (a listener may be writing it)', async () => {
    const log = writeLog([RECORDS[0]]);
    writeFileSync(log, `${JSON.stringify(RECORDS[1])}\n{"received_at":"2026-01-0`, { flag: 'a' });
    const result = await agentctl(['webhook-listen', 'replay', log, '--jsonl']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(RECORDS.slice(0, 2));
    expect(result.stderr).toContain(`${log}:3: skipped an incomplete last line`);
  });

  it('skips, with a warning, a torn last line an earlier listener ended with a line break (it refused the whole log)', async () => {
    const log = writeLog([RECORDS[0], RECORDS[1], '{"received_at":"2026-01-02T1']);
    const result = await agentctl(['webhook-listen', 'replay', log, '--jsonl']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(RECORDS.slice(0, 2));
    expect(result.stderr).toContain(`${log}:3: skipped a torn last line (cut short by a crash: never acknowledged)`);
  });

  it.each([
    [['missing.jsonl'], /missing\.jsonl: no such file/],
    [['LOG', '--since', 'yesterday'], /--since "yesterday" is neither an ISO 8601 time nor a duration/],
    [['LOG', '--task', 'nope'], /--task "nope" is not a UUID/],
    [['LOG', '--forward-to', 'ftp://x.example'], /--forward-to must be an http/],
    [['LOG', '--forward-to', 'http://127.0.0.1:9/x', '--timeout', '0'], /--timeout/],
  ])('%j exits 2 with the reason', async (args, message) => {
    const log = writeLog();
    const result = await agentctl(['webhook-listen', 'replay', ...args.map((arg) => (arg === 'LOG' ? log : arg))]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});
