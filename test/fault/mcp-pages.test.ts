// Issue 48, item 3: a filtered list (tasks_list with status) against pages that never end. Each page
// answers one task that never has the wanted status and says there is more; the server read on for
// ever (76,650 requests in 30 s), and went on after the client cancelled and closed its session. The
// client here is the SDK's own, as an assistant's would be.
import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { FILTERED_PAGES } from '../../src/core/list-page.js';
import { createServer } from '../../src/mcp/server.js';
import { connectMcp, data, mcpDeps, text } from '../helpers/mcp.js';
import { sendJson, stubServer, type StubRequest } from '../helpers/stub-server.js';

const task = (id: string) => ({ id, prompt: 'p', status: 'completed', created_at: '2026-05-01T08:00:00Z', updated_at: '2026-05-01T08:00:00Z' });
const pageOf = (request: StubRequest) => Number(new URL(request.url, 'http://stub').searchParams.get('page') ?? 1);
/** A page of one new completed task that says there are `count` and links on (to "x", which agentctl never follows). */
const endless = (count: number) => (request: StubRequest, response: ServerResponse) =>
  sendJson(response, 200, { count, next: 'x', previous: null, results: [task(`t${pageOf(request)}`)] });

let stub: Awaited<ReturnType<typeof stubServer>> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('tasks_list with a status, against pages that never hold it', () => {
  it('stops once the pages go past what count allows, with an error result', async () => {
    stub = await stubServer(endless(20));
    const mcp = await connectMcp({ baseUrl: stub.baseUrl, apiKey: 'k', listTools: false });
    try {
      const result = await mcp.call('tasks_list', { status: 'failed' });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/page 1's count of 20 items at 1 a page makes 20 pages, 21 if the list grew meanwhile: its count or its links are wrong/);
      // Pages 1-21 (the one more a list that grew may have), and none after.
      expect(stub.requests).toHaveLength(21);
    } finally {
      await mcp.close();
    }
  });

  it(`reads at most ${FILTERED_PAGES} pages in one call and names the page to read on from`, async () => {
    stub = await stubServer(endless(1_000_000_000));
    const mcp = await connectMcp({ baseUrl: stub.baseUrl, apiKey: 'k' });
    try {
      const result = await mcp.call('tasks_list', { status: 'failed' });
      expect(result.isError, text(result)).toBeFalsy();
      expect(data(result)).toMatchObject({ results: [], page: FILTERED_PAGES, next_page: FILTERED_PAGES + 1 });
      expect(stub.requests).toHaveLength(FILTERED_PAGES);
    } finally {
      await mcp.close();
    }
  });
});

/**
 * A server whose page requests wait as long as it takes (no request timeout to end them) against a
 * stub that answers pages 1 and 2 and holds page 3: resolves once page 3's request is under way.
 */
async function heldAtPageThree() {
  let closed!: () => void;
  const pageThreeClosed = new Promise<void>((resolve) => (closed = resolve));
  let reached!: () => void;
  const pageThree = new Promise<void>((resolve) => (reached = resolve));
  stub = await stubServer((request, response) => {
    if (pageOf(request) < 3) return endless(1_000_000_000)(request, response);
    response.once('close', closed);
    reached();
  });
  const deps = mcpDeps(stub.baseUrl, 'k');
  const api = new ApiClient({ baseUrl: stub.baseUrl, apiKey: 'k', timeoutMs: 600_000, userAgent: 'test', redactor: deps.redactor, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 } });
  const server = createServer({ ...deps, client: async () => api }, { readOnly: false, maxWaitSeconds: 30 });
  const client = new Client({ name: 'test', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const cancel = new AbortController();
  const call = client.callTool({ name: 'tasks_list', arguments: { status: 'failed' } }, undefined, { signal: cancel.signal }) as Promise<CallToolResult>;
  call.catch(() => undefined);
  await pageThree;
  return { client, cancel, call, pageThreeClosed };
}

describe('tasks_list with a status, stopped by its client', () => {
  it('a cancelled call ends its page request under way and sends no more', async () => {
    const { client, cancel, call, pageThreeClosed } = await heldAtPageThree();
    try {
      cancel.abort('the user pressed stop');
      await expect(call).rejects.toThrow(/the user pressed stop/);
      await pageThreeClosed;
      await new Promise((resolve) => setImmediate(resolve));
      expect(stub!.requests).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it('a closed session ends its page request under way and sends no more', async () => {
    const { client, pageThreeClosed } = await heldAtPageThree();
    await client.close();
    await pageThreeClosed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(stub!.requests).toHaveLength(3);
  });
});
