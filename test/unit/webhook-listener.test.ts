import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/api.js';
import { send } from '../helpers/http.js';
import { listenerUrl, normalizePath, randomPath, startListener, type Listener, type ListenerOptions, type ReceivedEvent, type Rejection } from '../../src/webhooks/listener.js';

const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const OTHER = '11111111-2222-4333-8444-555555555555';
const UA = 'Test-AgentWebhook/1.0';
const event = (id = ID, extra: Record<string, unknown> = {}) => ({ id, status: 'completed', agent_id: null, result: 'ok', ...extra });

let listener: Listener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function start(options: Partial<ListenerOptions> = {}) {
  const events: ReceivedEvent[] = [];
  const rejections: Rejection[] = [];
  listener = await startListener({
    onEvent: (received) => events.push(received),
    onRejected: (rejection) => rejections.push(rejection),
    ...options,
  });
  return { listener, events, rejections };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') {
  const { status, text, headers: answered } = await send(url, {
    method,
    headers: { 'content-type': 'application/json', 'user-agent': UA, ...headers },
    body: method === 'GET' || method === 'HEAD' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status, body: text ? JSON.parse(text) : undefined, headers: answered };
}

describe('webhook listener', () => {
  it('binds loopback on a free port with a random secret path, and answers 200 to a valid event', async () => {
    const { listener, events } = await start();
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{24}$/);
    expect(listener.port).toBeGreaterThan(0);
    const answer = await post(listener.url, event());
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect(events).toHaveLength(1);
    expect(events[0]?.record).toMatchObject({ headers: { 'user-agent': UA, 'content-type': 'application/json' }, body: event() });
    expect(Date.parse(events[0]?.record.received_at ?? '')).not.toBeNaN();
    expect(events[0]?.raw.toString()).toBe(JSON.stringify(event()));
    expect(listener.stats).toEqual({ received: 1, rejected: 0, ignored: 0, failed: 0 });
  });

  it('answers 404 for another path, 405 for another method, 415 for another content type', async () => {
    const { listener, events, rejections } = await start({ path: '/hooks/s3cret' });
    expect((await post(listener.url.replace('s3cret', 'guess'), event())).status).toBe(404);
    expect((await post(`http://127.0.0.1:${listener.port}/`, event())).status).toBe(404);
    const get = await post(listener.url, undefined, {}, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post(listener.url, event(), {}, 'PUT')).status).toBe(405);
    const text = await post(listener.url, JSON.stringify(event()), { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error).toMatch(/application\/json/);
    expect(events).toHaveLength(0);
    expect(rejections.map((r) => r.status)).toEqual([404, 404, 405, 405, 415]);
    // The exact path, and the same with a trailing slash or a query string, are accepted.
    expect((await post(listener.url, event())).status).toBe(200);
    expect((await post(`${listener.url}/?t=1`, event())).status).toBe(200);
  });

  it('answers 400 with a reason for bodies that are not JSON or not one of the shapes', async () => {
    const { listener, events } = await start();
    const notJson = await post(listener.url, '{"id": nope');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/not valid JSON/);
    const shape = await post(listener.url, { id: ID, status: 'failed', agent_id: null, result: null });
    expect(shape).toMatchObject({ status: 400, body: { error: 'missing "error_message" for a failed event' } });
    expect((await post(listener.url, '')).status).toBe(400);
    expect(events).toHaveLength(0);
    expect(listener.stats.rejected).toBe(3);
  });

  it('answers 413 past the body limit and stays usable', async () => {
    const { listener, events } = await start({ maxBodyBytes: 1024 });
    const big = await post(listener.url, event(ID, { result: 'x'.repeat(5000) }));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/1024-byte limit/);
    // Far past the limit: cut short without reading it all.
    const huge = await new Promise<number>((resolve) => {
      const req = request(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': 10_000_000 } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(-1));
      req.write('{"id":"');
    });
    expect([413, -1]).toContain(huge);
    expect((await post(listener.url, event())).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('acknowledges events only after persist resolves, hands them over in persist order, and 500s on a persist failure', async () => {
    const order: string[] = [];
    let fail = false;
    const { listener, events } = await start({
      persist: async ({ record }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (fail) throw new Error('disk full');
        order.push(`persist ${String(record.body.result)}`);
      },
      onEvent: (received) => {
        order.push(`event ${String(received.record.body.result)}`);
        events.push(received);
      },
    });
    expect((await post(listener.url, event(ID, { result: 'a' }))).status).toBe(200);
    expect(order).toEqual(['persist a', 'event a']);
    fail = true;
    const failed = await post(listener.url, event(ID, { result: 'b' }));
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatch(/disk full/);
    expect(events).toHaveLength(1);
    expect(listener.stats).toMatchObject({ received: 1, failed: 1 });
  });

  it('acknowledges but does not keep events the filter turns down (--task)', async () => {
    const { listener, events } = await start({ filter: (payload) => payload.id === ID });
    expect(await post(listener.url, event(OTHER))).toMatchObject({ status: 200, body: { ok: true, ignored: true } });
    expect((await post(listener.url, event(ID.toUpperCase()))).status).toBe(200);
    expect((await post(listener.url, event(ID))).status).toBe(200);
    expect(events.map((e) => e.record.body.id)).toEqual([ID]);
    expect(listener.stats).toMatchObject({ received: 1, ignored: 2 });
  });

  it('keeps at most `limit` events even when they arrive together; later ones get 503', async () => {
    const { listener, events } = await start({ limit: 3, persist: () => new Promise((resolve) => setTimeout(resolve, 10)) });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(listener.url, event(ID, { result: String(i) }))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 503)).toHaveLength(5);
    expect(events).toHaveLength(3);
  });

  it('close() answers requests under way before it resolves, and refuses new connections', async () => {
    let release: (() => void) | undefined;
    const { listener, events } = await start({ persist: () => new Promise<void>((resolve) => (release = resolve)) });
    const pending = post(listener.url, event());
    await eventually(() => release !== undefined, 5000, 'the event to reach persist');
    const closed = listener.close();
    release?.();
    expect((await pending).status).toBe(200);
    await closed;
    expect(events).toHaveLength(1);
    await expect(fetch(listener.url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('many concurrent senders: every event acknowledged exactly once', async () => {
    const { listener, events } = await start();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(listener.url, event(ID, { result: `r${i}` }))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(events.map((e) => e.record.body.result)).size).toBe(200);
  });
});

describe('paths and URLs', () => {
  it('makes random url-safe paths and normalises given ones', () => {
    expect(randomPath()).not.toBe(randomPath());
    expect(randomPath()).toMatch(/^\/[A-Za-z0-9_-]{24}$/);
    expect(normalizePath('hooks/x')).toBe('/hooks/x');
    expect(normalizePath('/a')).toBe('/a');
    expect(() => normalizePath('a b')).toThrow();
    expect(() => normalizePath('/a?b')).toThrow();
  });
  it('shows wildcard and IPv6 hosts usably', () => {
    expect(listenerUrl('0.0.0.0', 80, '/p')).toBe('http://127.0.0.1:80/p');
    expect(listenerUrl('::', 80, '/p')).toBe('http://[::1]:80/p');
    expect(listenerUrl('::1', 80, '/p')).toBe('http://[::1]:80/p');
    expect(listenerUrl('localhost', 80, '/p')).toBe('http://localhost:80/p');
  });
});
