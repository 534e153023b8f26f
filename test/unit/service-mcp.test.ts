// The client of the service's own MCP endpoint (src/api/service-mcp.ts) against a scripted stub:
// what it sends, which failures it retries (reads only, never a send), and the errors it makes.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { Redactor } from '../../src/api/redact.js';
import { SERVICE_MCP, ServiceMcpMissingError, ServiceRpcError, ServiceToolError, callServiceTool, serviceMcp } from '../../src/api/service-mcp.js';
import { NetworkError } from '../../src/api/errors.js';
import { ExitCode } from '../../src/errors.js';
import { sendJson, stubServer, type StubRequest } from '../helpers/stub-server.js';

const KEY = 'sk-test-service-mcp-key';
const AGENT = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
let stub: Awaited<ReturnType<typeof stubServer>> | undefined;
afterEach(() => stub?.close());

function clientFor(baseUrl: string): ApiClient {
  const redactor = new Redactor();
  redactor.add(KEY);
  return new ApiClient({ baseUrl, apiKey: KEY, timeoutMs: 5_000, userAgent: 't', redactor, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1_000 } });
}

const rpc = (request: StubRequest) => JSON.parse(request.body) as { id: number; method: string; params: { name: string; arguments: Record<string, unknown> } };
const result = (request: StubRequest, data: unknown, isError = false) => ({ jsonrpc: '2.0', id: rpc(request).id, result: { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data, isError } });

describe('the service MCP client', () => {
  it('sends one tools/call with the key, the protocol version and the method and tool headers', async () => {
    stub = await stubServer((request, response) => sendJson(response, 200, result(request, { status: 'queued', message_id: 'm1', agent_id: AGENT, cursor: '1:message:m1', latest_cursor: '1:message:m1' })));
    const sent = await serviceMcp.sendMessage(clientFor(stub.baseUrl), { agent_id: AGENT, body: 'hello' });
    expect(sent.cursor).toBe('1:message:m1');
    const [request] = stub.requests;
    expect(request?.url).toBe(`/api/v1${SERVICE_MCP.path}`);
    expect(request?.headers).toMatchObject({ 'x-api-key': KEY, 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call', 'mcp-name': 'gobii_send_agent_message' });
    expect(rpc(request as StubRequest)).toMatchObject({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'gobii_send_agent_message', arguments: { agent_id: AGENT, body: 'hello' } } });
  });

  it('retries a read-only tool after a gateway error, and never sends a message twice', async () => {
    stub = await stubServer((request, response, index) => (index === 0 || rpc(request).params.name === 'gobii_send_agent_message' ? sendJson(response, 503, { detail: 'busy' }) : sendJson(response, 200, result(request, { events: [], latest_cursor: null, has_more: false }))));
    const client = clientFor(stub.baseUrl);
    await expect(serviceMcp.timeline(client, { agent_id: AGENT })).resolves.toMatchObject({ events: [] });
    expect(stub.requests).toHaveLength(2);
    await expect(serviceMcp.sendMessage(client, { agent_id: AGENT, body: 'once' })).rejects.toThrow(/503/);
    expect(stub.requests.filter((request) => rpc(request).params.name === 'gobii_send_agent_message')).toHaveLength(1);
  });

  it('says which service version has the endpoint when the deployment answers 404', async () => {
    stub = await stubServer((_request, response) => sendJson(response, 404, { detail: 'Not found.' }));
    const error = await serviceMcp.timeline(clientFor(stub.baseUrl), { agent_id: AGENT }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceMcpMissingError);
    expect((error as Error).message).toContain(`gobii-platform ${SERVICE_MCP.since} or later`);
  });

  it('turns isError results and JSON-RPC errors into typed errors, the key taken out', async () => {
    stub = await stubServer((request, response) =>
      rpc(request).params.name === 'gobii_get_agent'
        ? sendJson(response, 200, result(request, { status: 'error', message: `Agent not found or inaccessible (${KEY}).\n::error::x`, details: { code: 'agent_not_found_or_inaccessible', field: 'agent_id' } }, true))
        : sendJson(response, 200, { jsonrpc: '2.0', id: rpc(request).id, error: { code: -32601, message: 'Method not found' } }),
    );
    const client = clientFor(stub.baseUrl);
    const refused = await callServiceTool(client, 'gobii_get_agent', { agent_id: AGENT }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceToolError);
    expect((refused as ServiceToolError).exitCode).toBe(ExitCode.notFound);
    expect((refused as Error).message).not.toContain(KEY);
    expect((refused as Error).message).not.toContain('\n');
    await expect(callServiceTool(client, 'gobii_list_agents', {})).rejects.toBeInstanceOf(ServiceRpcError);
  });

  it("refuses an answer that is not this call's (another id, no result)", async () => {
    stub = await stubServer((request, response, index) => sendJson(response, 200, index === 0 ? { jsonrpc: '2.0', id: rpc(request).id + 1, result: {} } : { jsonrpc: '2.0', id: rpc(request).id }));
    const client = clientFor(stub.baseUrl);
    await expect(serviceMcp.timeline(client, { agent_id: AGENT })).rejects.toThrow(/not this call's JSON-RPC answer/);
    await expect(serviceMcp.timeline(client, { agent_id: AGENT })).rejects.toThrow(/without a result/);
  });

  it('gives a wait the time the service holds it, plus the usual request limit', async () => {
    stub = await stubServer(() => undefined); // never answers
    const client = new ApiClient({ baseUrl: stub.baseUrl, timeoutMs: 50, userAgent: 't', redactor: new Redactor(), retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 } });
    const error = await serviceMcp.waitForEvent(client, { agent_id: AGENT, timeout_seconds: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
    expect((error as NetworkError).mayHaveBeenCarriedOut).toBe(false);
  });
});
