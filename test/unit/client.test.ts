import { afterEach, describe, expect, it } from 'vitest';
import { CLI_API_WORDS } from '../../src/cli/api-words.js';
import { ApiClient } from '../../src/api/client.js';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { Redactor } from '../../src/api/redact.js';
import { sendJson, stubServer, type StubRequest } from '../helpers/stub-server.js';
import type { ServerResponse } from 'node:http';

// The retry rules as the client applies them to real HTTP exchanges (retry.test.ts covers the
// policy helpers alone). Backoff is 1 ms here so every test is quick and deterministic.

type Handler = (request: StubRequest, response: ServerResponse, index: number) => void;
let stub: Awaited<ReturnType<typeof stubServer>> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function clientFor(handler: Handler, trace?: string[]): Promise<ApiClient> {
  stub = await stubServer(handler);
  return new ApiClient({
    baseUrl: stub.baseUrl,
    apiKey: 'unit-test-key-123',
    timeoutMs: 5_000,
    userAgent: 'agentctl-test',
    redactor: new Redactor(),
    retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 120_000 },
    trace: trace ? (line) => trace.push(line) : undefined,
  });
}

/** A client of `baseUrl` with `retries` retries of 1 ms backoff, tracing into `trace`. */
function clientAt(baseUrl: string, retries: number, trace: string[], options: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  return new ApiClient({
    baseUrl,
    apiKey: 'k',
    timeoutMs: 2_000,
    userAgent: 'agentctl-test',
    redactor: new Redactor(),
    retry: { retries, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 120_000 },
    trace: (line) => trace.push(line),
    ...options,
  });
}

/** Fails `times` times (with a status, or by dropping the connection), then answers 200. */
function failThenOk(times: number, failure: number | 'reset'): Handler {
  return (_request, response, index) => {
    if (index >= times) return sendJson(response, 200, { ok: true });
    if (failure === 'reset') return response.socket?.destroy();
    sendJson(response, failure, { detail: 'try later' });
  };
}

const methods = {
  GET: (client: ApiClient) => client.get('/things/'),
  PUT: (client: ApiClient) => client.put('/things/1/', { name: 'x' }),
  DELETE: (client: ApiClient) => client.delete('/things/1/'),
  POST: (client: ApiClient) => client.post('/things/', { name: 'x' }),
  PATCH: (client: ApiClient) => client.patch('/things/1/', { name: 'x' }),
};

describe('ApiClient retries', () => {
  it.each(['GET', 'PUT', 'DELETE'] as const)('retries %s after 500/502/503/504 and returns the answer', async (method) => {
    const client = await clientFor(failThenOk(3, 503));
    await expect(methods[method](client)).resolves.toEqual({ ok: true });
    expect(stub?.requests.map((r) => r.method)).toEqual([method, method, method, method]);
  });

  it.each(['GET', 'PUT', 'DELETE'] as const)('retries %s after a dropped connection', async (method) => {
    const client = await clientFor(failThenOk(2, 'reset'));
    await expect(methods[method](client)).resolves.toEqual({ ok: true });
    expect(stub?.requests).toHaveLength(3);
  });

  it('gives up after the retries with the last error', async () => {
    const client = await clientFor(failThenOk(99, 502));
    const error = await methods.GET(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect(stub?.requests).toHaveLength(4);
  });

  it.each(['POST', 'PATCH'] as const)('never re-sends %s after a 5xx', async (method) => {
    const client = await clientFor(failThenOk(1, 503));
    const error = await methods[method](client).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(503);
    expect(stub?.requests).toHaveLength(1);
  });

  it.each(['POST', 'PATCH'] as const)('never re-sends %s after the connection dropped mid-request', async (method) => {
    const client = await clientFor(failThenOk(1, 'reset'));
    const error = await methods[method](client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(stub?.requests).toHaveLength(1);
  });

  it('retries a GET answered by one 500 (a result endpoint that hiccups)', async () => {
    const client = await clientFor(failThenOk(1, 500));
    await expect(methods.GET(client)).resolves.toEqual({ ok: true });
    expect(stub?.requests).toHaveLength(2);
  });

  it('does not retry other errors (400, 404, 409)', async () => {
    for (const status of [400, 404, 409]) {
      const client = await clientFor(failThenOk(1, status));
      const error = await methods.GET(client).catch((e: unknown) => e);
      expect((error as ApiError).status).toBe(status);
      expect(stub?.requests).toHaveLength(1);
      await stub?.close();
      stub = undefined;
    }
  });

  it('retries 429 for every method, waiting as long as Retry-After says', async () => {
    const trace: string[] = [];
    const client = await clientFor((_request, response, index) => {
      if (index === 0) return sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '0.05' });
      sendJson(response, 201, { id: 'new' });
    }, trace);
    await expect(methods.POST(client)).resolves.toEqual({ id: 'new' });
    expect(stub?.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    // The pause is the server's 50 ms, not the client's own 1 ms backoff.
    expect(trace).toContain('retrying after 429 in 50 ms');
  });

  it('does not wait for a Retry-After longer than two minutes: the 429 is reported', async () => {
    const client = await clientFor((_request, response) => sendJson(response, 429, { detail: 'later' }, { 'retry-after': '3600' }));
    const error = await methods.GET(client).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(429);
    expect(stub?.requests).toHaveLength(1);
  });

  it('fails at once when nothing listens on loopback (no service yet), keeping the emulator hint', async () => {
    stub = await stubServer(() => undefined);
    const baseUrl = stub.baseUrl;
    await stub.close();
    stub = undefined;
    const trace: string[] = [];
    // The command line's words (the hint names its emulator command); the library's name none.
    const client = clientAt(baseUrl, 4, trace, { usingDefaultBaseUrl: true, words: CLI_API_WORDS });
    const error = await client.get('/things/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/);
    expect((error as NetworkError).hint).toContain('nothing is listening at the default address');
    expect(trace.filter((line) => line.startsWith('retrying'))).toEqual([]);
  });

  it('retries a create whose connection was refused after the service had answered (a restart: it never reached the service)', async () => {
    stub = await stubServer((_request, response) => sendJson(response, 200, { ok: true }));
    const baseUrl = stub.baseUrl;
    const trace: string[] = [];
    const client = clientAt(baseUrl, 2, trace);
    await client.get('/things/');
    client.close();
    await stub.close();
    stub = undefined;
    const error = await client.post('/things/', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toContain('after 3 attempts');
    expect(trace.filter((line) => line.startsWith('retrying after ECONNREFUSED'))).toHaveLength(2);
  });

  it('sends X-Api-Key and JSON, always with the trailing slash, and keeps the key out of traces', async () => {
    const trace: string[] = [];
    const client = await clientFor((_request, response) => sendJson(response, 200, { ok: true }), trace);
    await client.post('things', { a: 1 });
    const request = stub?.requests[0] as StubRequest;
    expect(request.url).toBe('/api/v1/things/');
    expect(request.headers['x-api-key']).toBe('unit-test-key-123');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ a: 1 });
    expect(trace.join('\n')).not.toContain('unit-test-key-123');
  });

  it('answers with status, headers and data (headers read on demand), whole when serialised', async () => {
    const client = await clientFor((_request, response) => sendJson(response, 200, { ok: true }, { date: 'Thu, 26 Nov 2026 00:00:00 GMT', 'X-Mixed-Case': 'yes' }));
    const answer = await client.request('GET', '/ping/');
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ ok: true });
    expect(answer.headers.date).toBe('Thu, 26 Nov 2026 00:00:00 GMT');
    expect(answer.headers['x-mixed-case']).toBe('yes');
    expect(JSON.parse(JSON.stringify(answer))).toMatchObject({ status: 200, data: { ok: true }, headers: { 'x-mixed-case': 'yes' } });
  });

  it('refuses a body longer than the limit from its Content-Length, whatever its case', async () => {
    stub = await stubServer((_request, response) => {
      response.writeHead(200, { 'CoNtEnT-LeNgTh': '2048', 'content-type': 'application/json' });
      response.end(JSON.stringify({ pad: 'x'.repeat(2036) }));
    });
    const client = new ApiClient({ baseUrl: stub.baseUrl, timeoutMs: 5_000, userAgent: 't', redactor: new Redactor(), maxBodyBytes: 1024 });
    await expect(client.request('GET', '/big/')).rejects.toThrow(/answered 200 with a body of .* it stopped reading/);
  });
});

