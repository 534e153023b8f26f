import { EventEmitter } from 'node:events';
import { createServer, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PooledTransport } from '../../src/api/pooled-transport.js';
import { BodyTooLargeError, HttpTransport, exchange, type Transport } from '../../src/api/transport.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

// The HTTP exchange under the API client: what reaches the server, what comes back, and how an
// exchange ends when the server is slow, silent or drops the connection. The same contract holds for
// node:http (single commands) and undici's pool (batches).

let stub: Awaited<ReturnType<typeof stubServer>> | undefined;
let transport: Transport | undefined;
let makeTransport: () => Transport = () => new HttpTransport();
afterEach(async () => {
  transport?.close();
  await stub?.close();
  stub = transport = undefined;
  makeTransport = () => new HttpTransport();
});

async function setUp(handler: Parameters<typeof stubServer>[0]) {
  stub = await stubServer(handler);
  transport = makeTransport();
  return { url: new URL(`${stub.baseUrl}/things/`), transport, stub };
}

// A dropped connection's code is one the retry policy knows as "may have been carried out".
describe.each([
  ['HttpTransport', () => new HttpTransport(), 'ECONNRESET'],
  ['PooledTransport', () => new PooledTransport(4), 'UND_ERR_SOCKET'],
])('%s', (_name, make: () => Transport, droppedCode: string) => {
  beforeEach(() => {
    makeTransport = make;
  });

  it('sends the method, headers and body, and returns status, headers and text', async () => {
    const { url, transport, stub } = await setUp((request, response) =>
      sendJson(response, 201, { got: JSON.parse(request.body) }, { 'retry-after': '3' }),
    );
    const response = await transport.send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: '{"name":"été"}',
      timeoutMs: 5000,
    });
    expect(response.status).toBe(201);
    expect(response.headers['retry-after']).toBe('3');
    expect(JSON.parse(response.text)).toEqual({ got: { name: 'été' } });
    expect(stub.requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/things/' });
    expect(stub.requests[0]?.headers).toMatchObject({ 'x-api-key': 'k', 'content-length': '16' });
  });

  it('sends a POST without a body with Content-Length: 0, not chunked (cancel, activate)', async () => {
    const { url, transport, stub } = await setUp((_request, response) => sendJson(response, 200, {}));
    await transport.send(url, { method: 'POST', headers: { 'x-api-key': 'k' }, timeoutMs: 5000 });
    await transport.send(url, { method: 'DELETE', headers: { 'x-api-key': 'k' }, timeoutMs: 5000 });
    expect(stub.requests[0]?.headers['content-length']).toBe('0');
    expect(stub.requests[0]?.headers['transfer-encoding']).toBeUndefined();
    expect(stub.requests[1]?.headers['content-length']).toBeUndefined();
    expect(stub.requests[1]?.headers['transfer-encoding']).toBeUndefined();
  });


  it('gives up with a TimeoutError when no complete answer comes in time', async () => {
    const { url, transport } = await setUp((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"partial":'); // and never the rest
    });
    await expect(transport.send(url, { method: 'GET', headers: {}, timeoutMs: 50 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('stops at once with the signal reason when the caller aborts', async () => {
    const { url, transport } = await setUp(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = transport.send(url, { method: 'GET', headers: {}, timeoutMs: 60_000, signal: controller.signal });
    setImmediate(() => controller.abort(new Error('interrupted')));
    await expect(pending).rejects.toThrow('interrupted');
  });

  it('reports a connection dropped mid-answer with its code, not as a short body', async () => {
    const { url, transport } = await setUp((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"cut":', () => response.socket?.destroy());
    });
    await expect(transport.send(url, { method: 'GET', headers: {}, timeoutMs: 5000 })).rejects.toMatchObject({ code: droppedCode });
  });

  it('reports a refused connection with its code', async () => {
    const { url, transport, stub } = await setUp(() => {});
    await stub.close();
    await expect(transport.send(url, { method: 'GET', headers: {}, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('reaches an IPv6 literal host, and sends the path and query as given', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.headers.host} ${request.url}`);
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    const { port } = server.address() as AddressInfo;
    transport = make();
    try {
      const response = await transport.send(new URL(`http://[::1]:${port}/api/v1/tasks/?page=2`), { method: 'GET', headers: {}, timeoutMs: 5000 });
      expect(response.status).toBe(200);
      expect(seen).toEqual([`[::1]:${port} /api/v1/tasks/?page=2`]);
    } finally {
      transport.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a body larger than the limit, whether it says so first or streams it', async () => {
    const { url, transport } = await setUp((request, response) => {
      if (request.url.endsWith('declared/')) return void response.writeHead(200, { 'content-length': '2012' }).end(`{"big":"${'x'.repeat(2002)}"}`);
      response.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length said
      response.write(`{"big":"${'x'.repeat(1500)}`);
      setImmediate(() => response.end(`${'x'.repeat(1500)}"}`));
    });
    const declared = new URL('declared/', url);
    await expect(transport.send(declared, { method: 'GET', headers: {}, timeoutMs: 5000, maxBodyBytes: 1024 })).rejects.toMatchObject({ name: 'BodyTooLargeError', limit: 1024, declared: 2012 });
    const streamed = await transport.send(url, { method: 'GET', headers: {}, timeoutMs: 5000, maxBodyBytes: 1024 }).catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(BodyTooLargeError);
    expect(streamed).toMatchObject({ limit: 1024, declared: undefined, status: 200 });
  });
});

describe('PooledTransport', () => {
  it('keeps at most its number of connections, and reuses them', async () => {
    const ports = new Set<number | undefined>();
    const { url } = await setUp((_request, response) => {
      ports.add(response.socket?.remotePort);
      sendJson(response, 200, {});
    });
    transport = new PooledTransport(3);
    const send = () => (transport as Transport).send(url, { method: 'POST', headers: {}, body: '{}', timeoutMs: 5000 });
    await Promise.all(Array.from({ length: 20 }, send));
    for (let i = 0; i < 5; i++) await send();
    expect(ports.size).toBeLessThanOrEqual(3);
  });

  it('a request still waiting for a connection when its time runs out was never sent: a connect timeout', async () => {
    let answer: (() => void) | undefined;
    const { url } = await setUp((_request, response) => {
      answer ??= () => sendJson(response, 200, {}); // the first holds the only connection
    });
    transport = new PooledTransport(1);
    const first = transport.send(url, { method: 'POST', headers: {}, body: '{}', timeoutMs: 5000 });
    const second = await transport.send(url, { method: 'POST', headers: {}, body: '{}', timeoutMs: 50 }).catch((e: unknown) => e);
    expect(second).toMatchObject({ name: 'ConnectTimeoutError', code: 'UND_ERR_CONNECT_TIMEOUT' });
    answer?.();
    expect((await first).status).toBe(200);
    expect(stub?.requests).toHaveLength(1); // the second never went out
  });

  it("the wait for a free connection does not eat the exchange's time: a create queued behind slow ones is not cut off once sent (it would read as maybe carried out)", async () => {
    // More calls than connections (the MCP server's 16): node:http would have sent each at once,
    // and each would have had its whole time limit for its answer.
    const { url } = await setUp((_request, response) => {
      setTimeout(() => sendJson(response, 201, {}), 1000);
    });
    transport = new PooledTransport(1);
    // 1.5 s each: counted from the queue the second would need 2 s. The half second to spare is for a
    // busy machine's late timers (300 ms against 500 ms left it 200 ms).
    const send = () => (transport as Transport).send(url, { method: 'POST', headers: {}, body: '{}', timeoutMs: 1500 });
    const [first, second] = await Promise.allSettled([send(), send()]);
    expect(first).toMatchObject({ status: 'fulfilled' });
    expect(second).toMatchObject({ status: 'fulfilled' });
  });

  it('sends a URL with credentials the way node:http does (a pool has no user in its origin)', async () => {
    const { url, stub } = await setUp((_request, response) => sendJson(response, 200, {}));
    transport = new PooledTransport(2);
    const withUser = new URL(url);
    withUser.username = 'me';
    withUser.password = 'secret';
    expect((await transport.send(withUser, { method: 'GET', headers: {}, timeoutMs: 5000 })).status).toBe(200);
    expect(stub.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('me:secret').toString('base64')}`);
  });
});

describe('HttpTransport', () => {
  it('reuses one kept-alive connection for requests in a row', async () => {
    const ports = new Set<number | undefined>();
    const { url, transport } = await setUp((_request, response) => {
      ports.add(response.socket?.remotePort);
      sendJson(response, 200, {});
    });
    for (let i = 0; i < 3; i++) await transport.send(url, { method: 'GET', headers: {}, timeoutMs: 5000 });
    expect(ports.size).toBe(1);
  });

  // A connection that is never made must read as never sent (UND_ERR_CONNECT_TIMEOUT), so a create
  // may be tried again; a request whose connection is made and whose answer never comes may not.
  const pendingRequest = (connecting: boolean) => {
    const request = Object.assign(new EventEmitter(), { end: () => undefined, destroy: () => undefined });
    const socket = Object.assign(new EventEmitter(), { connecting });
    setImmediate(() => request.emit('socket', socket));
    return request as unknown as ClientRequest;
  };

  it('a time limit that runs out before the connection is made is a connect timeout, also under 10 s', async () => {
    const error = await exchange(() => pendingRequest(true), { method: 'POST', headers: {}, timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectTimeoutError', code: 'UND_ERR_CONNECT_TIMEOUT' });
  });

  it('an unreachable host on a connection already made reads as a broken connection (the request may have gone out), before it as never sent', async () => {
    const failing = (connecting: boolean, code: string) => () => {
      const request = pendingRequest(connecting);
      setImmediate(() => setImmediate(() => request.emit('error', Object.assign(new Error(code), { code }))));
      return request;
    };
    const after = await exchange(failing(false, 'EHOSTUNREACH'), { method: 'POST', headers: {}, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(after).toMatchObject({ code: 'ECONNRESET', message: 'the connection broke after it was made (EHOSTUNREACH)' });
    const before = await exchange(failing(true, 'EHOSTUNREACH'), { method: 'POST', headers: {}, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(before).toMatchObject({ code: 'EHOSTUNREACH' });
  });

  it('a time limit that runs out after the connection is made is an answer timeout', async () => {
    const error = await exchange(() => pendingRequest(false), { method: 'POST', headers: {}, timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError', message: 'no complete answer within 30 ms' });
    expect((error as { code?: string }).code).toBeUndefined();
  });

});
