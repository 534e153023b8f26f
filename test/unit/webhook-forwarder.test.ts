import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Forwarder, isRetryableStatus, parseRetryAfter, type ForwardItem, type SendOutcome } from '../../src/webhooks/forwarder.js';
import { eventually } from '../helpers/api.js';

const item = (n: number): ForwardItem => ({
  body: Buffer.from(JSON.stringify({ n })),
  contentType: 'application/json',
  userAgent: 'Test-AgentWebhook/1.0',
  label: `task-${n}`,
});
const numberOf = (body: Buffer) => (JSON.parse(body.toString()) as { n: number }).n;
const instantSleep = async (_ms: number, signal: AbortSignal) => {
  if (signal.aborted) throw signal.reason;
  await new Promise((resolve) => setImmediate(resolve));
};

describe('Forwarder (scripted target)', () => {
  it('delivers in order, one at a time, retrying the head until the target takes it', async () => {
    const answers: Array<SendOutcome | Error> = [new Error('ECONNREFUSED'), { status: 503 }, { status: 200 }];
    const seen: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const delays: number[] = [];
    const forwarder = new Forwarder('http://target/', {
      sleep: instantSleep,
      random: () => 1,
      initialDelayMs: 100,
      onRetry: (_item, _reason, _attempt, delay) => delays.push(delay),
      send: async (_target, next) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        const answer = answers.shift() ?? { status: 200 };
        if (answer instanceof Error) throw answer;
        if (answer.status === 200) seen.push(numberOf(next.body));
        return answer;
      },
    });
    for (let i = 0; i < 5; i++) forwarder.enqueue(item(i));
    expect(forwarder.queued).toBe(5); // enqueue never waits for the target
    expect(await forwarder.drain(5000)).toBe(true);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(maxInFlight).toBe(1);
    expect(forwarder.stats).toMatchObject({ forwarded: 5, queued: 0, retries: 2, rejected: 0 });
    expect(delays).toEqual([100, 200]); // exponential backoff
  });

  it('caps the backoff and honours Retry-After', async () => {
    const delays: number[] = [];
    let calls = 0;
    const forwarder = new Forwarder('http://target/', {
      sleep: instantSleep,
      random: () => 1,
      initialDelayMs: 100,
      maxDelayMs: 1000,
      onRetry: (_i, _r, _a, delay) => delays.push(delay),
      send: async () => (++calls < 8 ? (calls === 7 ? { status: 429, retryAfterMs: 900 } : { status: 500 }) : { status: 204 }),
    });
    forwarder.enqueue(item(1));
    await forwarder.drain();
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
    // Jitter keeps at least half the backoff.
    const low: number[] = [];
    let tries = 0;
    const jittered = new Forwarder('http://t/', {
      random: () => 0,
      initialDelayMs: 100,
      sleep: instantSleep,
      onRetry: (_i, _r, _a, delay) => low.push(delay),
      send: async () => ({ status: ++tries < 3 ? 500 : 200 }),
    });
    jittered.enqueue(item(1));
    await jittered.drain();
    expect(low).toEqual([50, 100]);
  });

  it('does not retry a body the target refuses for good (4xx), and moves on', async () => {
    const refused: string[] = [];
    const sent: number[] = [];
    const forwarder = new Forwarder('http://target/', {
      sleep: instantSleep,
      onRejected: (next, reason) => refused.push(`${next.label} ${reason}`),
      send: async (_t, next) => {
        sent.push(numberOf(next.body));
        return { status: numberOf(next.body) === 1 ? 422 : 200 };
      },
    });
    for (let i = 0; i < 3; i++) forwarder.enqueue(item(i));
    await forwarder.drain();
    expect(sent).toEqual([0, 1, 2]);
    expect(refused).toEqual(['task-1 answered 422']);
    expect(forwarder.stats).toMatchObject({ forwarded: 2, rejected: 1, queued: 0 });
  });

  it('drain gives up at its timeout; stop aborts and leaves the queue counted', async () => {
    const forwarder = new Forwarder('http://target/', { send: async () => ({ status: 503 }), initialDelayMs: 10_000 });
    forwarder.enqueue(item(1));
    forwarder.enqueue(item(2));
    expect(await forwarder.drain(50)).toBe(false);
    forwarder.stop();
    expect(forwarder.queued).toBe(2);
    expect(forwarder.forwarded).toBe(0);
    forwarder.enqueue(item(3)); // ignored once stopped
    expect(forwarder.queued).toBe(2);
  });

  it('classifies statuses and reads Retry-After', () => {
    expect([500, 502, 503, 408, 429].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 404, 422].some(isRetryableStatus)).toBe(false);
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('Forwarder (real HTTP target that is down, then back)', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('loses nothing and duplicates nothing: every event arrives once, in order, with its headers', async () => {
    // Reserve a free port, then leave it closed: the target is "down".
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const forwarder = new Forwarder(`http://127.0.0.1:${port}/hook`, { initialDelayMs: 20, maxDelayMs: 100 });
    for (let i = 0; i < 20; i++) forwarder.enqueue(item(i));
    await eventually(() => forwarder.retries >= 3, 5000, 'a few failed attempts');
    expect(forwarder.forwarded).toBe(0);

    const received: Array<{ n: number; ua?: string; type?: string }> = [];
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ n: numberOf(Buffer.concat(chunks)), ua: req.headers['user-agent'], type: req.headers['content-type'] });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    for (let i = 20; i < 30; i++) forwarder.enqueue(item(i));
    expect(await forwarder.drain(10_000)).toBe(true);
    forwarder.stop();
    expect(received.map((r) => r.n)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(received[0]).toMatchObject({ ua: 'Test-AgentWebhook/1.0', type: 'application/json' });
  });
});
