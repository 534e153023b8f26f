import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Forwarder, type ForwardItem, type SendOutcome } from '../../src/webhooks/forwarder.js';
import { eventually } from '../helpers/api.js';

const item = (n: number): ForwardItem => ({
  body: Buffer.from(JSON.stringify({ n })),
  contentType: 'application/json',
  userAgent: 'Test-AgentWebhook/1.0',
  label: `task-${n}`,
});
const numberOf = (body: Buffer) => (JSON.parse(body.toString()) as { n: number }).n;
const instantSleep = async (_ms: number, signal?: AbortSignal) => {
  if (signal?.aborted) throw signal.reason;
  await new Promise((resolve) => setImmediate(resolve));
};

const policy = (baseDelayMs: number, maxDelayMs = 10_000) => ({ retries: 0, baseDelayMs, maxDelayMs, maxRetryAfterMs: 120_000 });
const networkError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

/**
 * A forwarder (one event at a time, full jitter, no real waiting) whose target gives `answers` in
 * turn, then 200s; it records what was delivered, the retry delays and the refusals.
 */
function scripted(answers: Array<SendOutcome | Error>) {
  const seen = { delivered: [] as number[], delays: [] as number[], refused: [] as string[], maxInFlight: 0 };
  let inFlight = 0;
  const forwarder = new Forwarder('http://target/', {
    window: 1,
    clock: { sleep: instantSleep },
    random: () => 1,
    retry: policy(100),
    onRetry: (_item, notice) => seen.delays.push(notice.delayMs),
    onRejected: (next, reason) => seen.refused.push(`${next.label}: ${reason}`),
    send: async (_target, next) => {
      seen.maxInFlight = Math.max(seen.maxInFlight, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const answer = answers.shift() ?? { status: 200 };
      if (answer instanceof Error) throw answer;
      if (answer.status < 300) seen.delivered.push(numberOf(next.body));
      return answer;
    },
  });
  return { forwarder, seen };
}

describe('Forwarder (scripted target)', () => {
  it('delivers in order, retrying the earliest event one at a time while the target fails', async () => {
    const { forwarder, seen } = scripted([networkError('ECONNREFUSED'), { status: 503 }]);
    for (let i = 0; i < 5; i++) forwarder.enqueue(item(i));
    expect(forwarder.queued).toBe(5); // enqueue never waits for the target
    expect(await forwarder.drain(5000)).toBe(true);
    expect(seen.delivered).toEqual([0, 1, 2, 3, 4]);
    expect(seen.maxInFlight).toBe(1);
    expect(forwarder.stats).toMatchObject({ forwarded: 5, queued: 0, retries: 2, rejected: 0 });
    expect(seen.delays).toEqual([100, 200]); // exponential backoff (the API client's policy)
  });

  it('keeps a window of deliveries in flight, sent in order, settled in order', async () => {
    const sent: number[] = [];
    const settled: number[] = [];
    const pending: Array<() => void> = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const forwarder = new Forwarder('http://target/', {
      window: 4,
      onSettled: (next) => settled.push(numberOf(next.body)),
      send: (_target, next) => {
        sent.push(numberOf(next.body));
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        return new Promise((resolve) => pending.push(() => (inFlight--, resolve({ status: 204 }))));
      },
    });
    for (let i = 0; i < 10; i++) forwarder.enqueue(item(i));
    expect(sent).toEqual([]); // sent once the caller's current work is done
    await Promise.resolve();
    expect(sent).toEqual([0, 1, 2, 3]);
    // Answers in reverse: nothing settles until the first one is answered.
    for (const answer of pending.splice(1).reverse()) answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    pending.shift()?.();
    while (pending.length > 0 || forwarder.queued > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      pending.shift()?.();
    }
    expect(await forwarder.drain(1000)).toBe(true);
    expect(sent).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(settled).toEqual(sent);
    expect(maxInFlight).toBe(4);
  });

  it('falls back to one delivery at a time during an outage, and opens the window again after', async () => {
    let down = true;
    let inFlight = 0;
    const inFlightWhileDown: number[] = [];
    let maxAfter = 0;
    const outages: boolean[] = [];
    const forwarder = new Forwarder('http://target/', {
      window: 4,
      clock: { sleep: instantSleep },
      onRetry: (_item, notice) => outages.push(notice.outageStarted),
      send: async () => {
        inFlight++;
        if (down) inFlightWhileDown.push(inFlight);
        else maxAfter = Math.max(maxAfter, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        if (down && forwarder.retries >= 6) down = false;
        if (down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return { status: 200 };
      },
    });
    for (let i = 0; i < 20; i++) forwarder.enqueue(item(i));
    expect(await forwarder.drain(5000)).toBe(true);
    // The first window was out when the target went down; every retry after that went alone.
    expect(inFlightWhileDown.slice(4).every((n) => n === 1)).toBe(true);
    expect(outages.filter(Boolean)).toHaveLength(1); // one outage, reported once
    expect(maxAfter).toBe(4);
    expect(forwarder.forwarded).toBe(20);
  });

  it('caps the backoff and honours Retry-After', async () => {
    const delays: number[] = [];
    let calls = 0;
    const forwarder = new Forwarder('http://target/', {
      clock: { sleep: instantSleep },
      random: () => 1,
      retry: policy(100, 1000),
      onRetry: (_item, notice) => delays.push(notice.delayMs),
      send: async () => (++calls < 8 ? (calls === 7 ? { status: 429, retryAfterMs: 3000 } : { status: 500 }) : { status: 204 }),
    });
    forwarder.enqueue(item(1));
    await forwarder.drain();
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000, 3000]);
    // Jitter keeps at least half the backoff.
    const low: number[] = [];
    let tries = 0;
    const jittered = new Forwarder('http://t/', {
      random: () => 0,
      retry: policy(100),
      clock: { sleep: instantSleep },
      onRetry: (_item, notice) => low.push(notice.delayMs),
      send: async () => ({ status: ++tries < 3 ? 500 : 200 }),
    });
    jittered.enqueue(item(1));
    await jittered.drain();
    expect(low).toEqual([50, 100]);
  });

  it('does not retry a body the target refuses for good (4xx), and moves on', async () => {
    const refused: string[] = [];
    const sent: number[] = [];
    const settled: number[] = [];
    const forwarder = new Forwarder('http://target/', {
      clock: { sleep: instantSleep },
      onRejected: (next, reason) => refused.push(`${next.label} ${reason}`),
      onSettled: (next) => settled.push(numberOf(next.body)),
      send: async (_t, next) => {
        sent.push(numberOf(next.body));
        return { status: numberOf(next.body) === 1 ? 422 : 200 };
      },
    });
    for (let i = 0; i < 3; i++) forwarder.enqueue(item(i));
    await forwarder.drain();
    expect(sent).toEqual([0, 1, 2]);
    expect(settled).toEqual([0, 1, 2]);
    expect(refused).toEqual(['task-1 answered 422']);
    expect(forwarder.stats).toMatchObject({ forwarded: 2, rejected: 1, queued: 0 });
  });

  it('drain gives up at its timeout; stop aborts and leaves the queue counted', async () => {
    const forwarder = new Forwarder('http://target/', { send: async () => ({ status: 503 }), retry: policy(10_000) });
    forwarder.enqueue(item(1));
    forwarder.enqueue(item(2));
    expect(await forwarder.drain(50)).toBe(false);
    await forwarder.stop();
    expect(forwarder.queued).toBe(2);
    expect(forwarder.forwarded).toBe(0);
    forwarder.enqueue(item(3)); // ignored once stopped
    expect(forwarder.queued).toBe(2);
  });

  it('finishInFlight lets the deliveries under way end, counted and settled, and sends nothing more', async () => {
    const sent: number[] = [];
    const settled: number[] = [];
    const answers: Array<() => void> = [];
    const forwarder = new Forwarder('http://target/', {
      window: 3,
      onSettled: (next) => settled.push(numberOf(next.body)),
      send: (_target, next) => {
        sent.push(numberOf(next.body));
        return new Promise((resolve) => answers.push(() => resolve({ status: 204 })));
      },
    });
    for (let i = 0; i < 5; i++) forwarder.enqueue(item(i));
    await Promise.resolve();
    expect(sent).toEqual([0, 1, 2]);
    const finished = forwarder.finishInFlight(60_000);
    for (const answer of answers.splice(0)) answer();
    await finished;
    expect(forwarder.stats).toMatchObject({ forwarded: 3, queued: 2 });
    expect(settled).toEqual([0, 1, 2]); // the durable cursor moves past them
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([0, 1, 2]); // the rest stays queued
    await forwarder.stop();
  });

  it('finishInFlight gives up at its timeout on a target that does not answer', async () => {
    const forwarder = new Forwarder('http://target/', { send: () => new Promise(() => undefined) });
    forwarder.enqueue(item(1));
    await Promise.resolve();
    await forwarder.finishInFlight(20);
    await forwarder.stop();
    expect(forwarder.stats).toMatchObject({ forwarded: 0, queued: 1 });
  });

  it('follows the one retry policy: transient failures repeat, lasting ones refuse the event; Retry-After waited out up to its cap', async () => {
    const { forwarder, seen } = scripted([
      { status: 408 },
      networkError('ECONNRESET'),
      { status: 429, retryAfterMs: 3_600_000 },
      { status: 200 }, // event 0 delivered
      networkError('ENOTFOUND'), // event 1: a lasting failure
      { status: 404 }, // event 2
    ]);
    for (let i = 0; i < 4; i++) forwarder.enqueue(item(i));
    expect(await forwarder.drain(1000)).toBe(true);
    expect(seen.delays).toEqual([100, 200, 120_000]); // backoff, backoff, Retry-After capped at the policy's 120 s
    expect(seen.refused).toEqual(['task-1: ENOTFOUND', 'task-2: answered 404']);
    expect(seen.delivered).toEqual([0, 3]);
    expect(forwarder.stats).toMatchObject({ forwarded: 2, rejected: 2, retries: 3 });
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

    const forwarder = new Forwarder(`http://127.0.0.1:${port}/hook`, { retry: policy(20, 100) });
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
    await forwarder.stop();
    expect(received.map((r) => r.n)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(received[0]).toMatchObject({ ua: 'Test-AgentWebhook/1.0', type: 'application/json' });
  });
});

describe('Forwarder (real HTTP target, healthy)', () => {
  it('pipelines a window of 8 on one keep-alive connection: the target gets every event once, in order', async () => {
    const received: number[] = [];
    const held: Array<() => void> = [];
    let connections = 0;
    let most = 0;
    const target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(numberOf(Buffer.concat(chunks)));
        held.push(() => res.writeHead(204).end());
        // Answer only once the whole window has arrived (Node answers pipelined requests in order).
        most = Math.max(most, held.length);
        if (held.length === 8 || received.length > 8) for (const answer of held.splice(0)) answer();
      });
    });
    target.on('connection', () => connections++);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const forwarder = new Forwarder(`http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`);
    for (let i = 0; i < 300; i++) forwarder.enqueue(item(i));
    try {
      expect(await forwarder.drain(10_000)).toBe(true);
    } finally {
      await forwarder.stop();
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
    expect(received).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(most).toBe(8);
    expect(connections).toBe(1);
  });
});

describe('Forwarder (real HTTP target that redirects)', () => {
  it('follows a redirect by posting the event again to the new location, and reads Retry-After', async () => {
    const seen: string[] = [];
    let busy = true;
    const target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${Buffer.concat(chunks).length > 0 ? 'with body' : 'empty'}`);
        if (req.url === '/hook') return res.writeHead(301, { location: '/hook/' }).end();
        if (busy) return (busy = false), res.writeHead(503, { 'retry-after': '0.05' }).end('busy');
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const delays: number[] = [];
    const forwarder = new Forwarder(`http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`, {
      retry: policy(10),
      onRetry: (_item, notice) => delays.push(notice.delayMs),
    });
    forwarder.enqueue(item(1));
    try {
      expect(await forwarder.drain(5000)).toBe(true);
    } finally {
      await forwarder.stop();
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
    expect(seen).toEqual(['POST /hook with body', 'POST /hook/ with body', 'POST /hook with body', 'POST /hook/ with body']);
    expect(delays).toEqual([50]);
    expect(forwarder.forwarded).toBe(1);
  });
});

describe('Forwarder (hostile target: a 3xx is not a delivery)', () => {
  it('refuses an event the target answers with a redirect loop, a 302 without Location or a 304: none is forwarded', async () => {
    const posts: string[] = [];
    const target = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        posts.push(req.url ?? '');
        if (req.url?.startsWith('/loop')) return res.writeHead(302, { location: `/loop${posts.length}` }).end();
        if (req.url === '/nowhere') return res.writeHead(302).end();
        res.writeHead(304).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const outcomes: string[] = [];
    try {
      for (const path of ['/loop', '/nowhere', '/unchanged']) {
        const settled: string[] = [];
        const forwarder = new Forwarder(`${origin}${path}`, {
          retry: policy(10),
          onDelivered: (next) => outcomes.push(`${path}: delivered ${next.label}`),
          onRejected: (next, reason) => outcomes.push(`${path}: ${reason}`),
          onSettled: (next) => settled.push(next.label),
        });
        forwarder.enqueue(item(1));
        expect(await forwarder.drain(5000)).toBe(true);
        await forwarder.stop();
        expect(forwarder.stats).toMatchObject({ forwarded: 0, rejected: 1, retries: 0 });
        expect(settled).toEqual(['task-1']); // settled as refused, like a 4xx: reported, not retried
      }
    } finally {
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
    expect(outcomes).toEqual([
      '/loop: answered 302 6 times in a row (a redirect loop)',
      '/nowhere: answered 302 without a Location header',
      '/unchanged: answered 304, not a 2xx',
    ]);
    expect(posts.filter((path) => path.startsWith('/loop'))).toHaveLength(6); // the first post and 5 redirects, then it stops
  });
});
