// client.persistent's calls through the service's MCP endpoint (issue 42): links, files, config
// options and the trace against the emulator; inputs refused before any request, naming the option;
// retries only for reads; an older deployment named by the version it lacks.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InputError, createClient, type AgentctlClient } from '../../src/client/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const KEY = 'library-tools-key-4567';
let emulator: RunningEmulator;
let client: AgentctlClient;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 100, apiKey: KEY });
  client = createClient({ baseUrl: emulator.baseUrl, apiKey: KEY });
});
afterAll(() => emulator.close());
const stubs: Array<Awaited<ReturnType<typeof stubServer>>> = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

const agent = async (name: string) => (await client.persistent.create({ name, charter: 'Coordinate' })).id;
const mcpRequests = (from: number) => emulator.requests.slice(from).filter((request) => request.path.startsWith('/mcp/'));

describe('client.persistent through the service MCP endpoint', () => {
  it('links, lists and unlinks two agents', async () => {
    const [a, b] = [await agent('lib-a'), await agent('lib-b')];
    const made = await client.persistent.link(a, b, { messagesPerWindow: 5, windowHours: 12 });
    expect(made).toMatchObject({ created: true, link: { agent_a: { id: a }, agent_b: { id: b }, messages_per_window: 5, window_hours: 12 } });
    expect((await client.persistent.links(a)).map((link) => link.id)).toEqual([made.link.id]);
    expect(await client.persistent.unlink({ linkId: made.link.id })).toMatchObject({ status: 'unlinked', link: { id: made.link.id } });
    expect(await client.persistent.links(b)).toEqual([]);
  });

  it('uploads bytes and text, lists them, and reads them back proven by their checksum', async () => {
    const a = await agent('lib-files');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const stored = await client.persistent.uploadFile(a, { path: '/uploads/dot.png', content: png });
    expect(stored).toMatchObject({ status: 'ok', path: '/uploads/dot.png', mime_type: 'image/png' });
    await client.persistent.uploadFile(a, { path: '/uploads/a.txt', content: 'text' });
    const listing = await client.persistent.files(a);
    expect(listing.nodes.filter((node) => node.node_type === 'file').map((node) => node.path).sort()).toEqual(['/uploads/a.txt', '/uploads/dot.png']);
    const read = await client.persistent.readFile(a, '/uploads/dot.png');
    expect(Buffer.from(read.content)).toEqual(png);
    expect(read).toMatchObject({ uri: stored.resource_uri, mime_type: 'image/png', size_bytes: 8, checksum_sha256: createHash('sha256').update(png).digest('hex') });
    expect(Buffer.from((await client.persistent.readFile(a, stored.node_id.toUpperCase())).content)).toEqual(png);
  });

  it('reads the config options and the trace', async () => {
    const a = await agent('lib-trace');
    expect(await client.persistent.configOptions(a)).toMatchObject({ agent: { id: a }, fields: { preferred_llm_tier: { options: expect.any(Array) } } });
    expect(await client.persistent.trace(a, { limit: 5, detail: 'summary' })).toMatchObject({ agent: { id: a } });
  });

  it('refuses bad inputs before any request, naming the option', async () => {
    const a = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
    const from = emulator.requests.length;
    const refusals: Array<[Promise<unknown>, string, string]> = [
      [client.persistent.link(a, a), 'peerId', 'is the agent itself'],
      [client.persistent.link(a, 'x'), 'peerId', 'is not a UUID'],
      [client.persistent.link(a, '9b2e4c1d-7a3f-4e5b-8c6d-0f1e2d3c4b5a', { messagesPerWindow: 501 }), 'messagesPerWindow', 'from 1 to 500'],
      [client.persistent.unlink({ id: a } as never), 'peerId', 'is needed'],
      [client.persistent.uploadFile(a, { path: 'relative.txt', content: 'x' }), 'path', 'is not a filespace path'],
      [client.persistent.uploadFile(a, { path: '/uploads/big.bin', content: new Uint8Array(10 * 1024 * 1024 + 1) }), 'content', 'the service takes files of at most 10485760 bytes'],
      [client.persistent.readFile(a, 'report.pdf'), 'file', 'is not a filespace path'],
      [client.persistent.trace(a, { recentMinutes: 0 }), 'recentMinutes', 'from 1 to 10080'],
      [client.persistent.trace(a, { since: 'soon' }), 'since', 'ISO 8601'],
      [client.persistent.trace(a, { evalRunId: 'x' }), 'evalRunId', 'is not a UUID'],
    ];
    for (const [call, field, problem] of refusals) {
      const error = await call.catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ field });
      expect((error as InputError).problem).toContain(problem);
    }
    expect(mcpRequests(from)).toEqual([]);
  });
});

describe('against a stub of the endpoint', () => {
  it('retries a read after a gateway error, and sends a link, an unlink or an upload once', async () => {
    const stub = await stubServer((request, response, index) => {
      const { id, params } = JSON.parse(request.body) as { id: number; params: { name: string } };
      if (index === 0 || params.name !== 'gobii_list_agent_links') return sendJson(response, 503, { detail: 'busy' });
      sendJson(response, 200, { jsonrpc: '2.0', id, result: { content: [], structuredContent: { links: [] }, isError: false } });
    });
    stubs.push(stub);
    const lib = createClient({ baseUrl: stub.baseUrl, apiKey: KEY, clock: new FakeClock() });
    const [a, b] = ['3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', '9b2e4c1d-7a3f-4e5b-8c6d-0f1e2d3c4b5a'];
    expect(await lib.persistent.links()).toEqual([]);
    expect(stub.requests).toHaveLength(2);
    for (const write of [lib.persistent.link(a, b), lib.persistent.unlink({ id: a, peerId: b }), lib.persistent.uploadFile(a, { path: '/uploads/x.txt', content: 'x' })]) {
      const before = stub.requests.length;
      await expect(write).rejects.toMatchObject({ status: 503 });
      expect(stub.requests.length - before).toBe(1);
    }
  });

  it('says which gobii-platform version a deployment without the tool needs', async () => {
    const stub = await stubServer((_request, response) => sendJson(response, 404, { detail: 'Not found.' }));
    stubs.push(stub);
    const lib = createClient({ baseUrl: stub.baseUrl, apiKey: KEY });
    const a = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
    await expect(lib.persistent.readFile(a, a)).rejects.toMatchObject({ name: 'ServiceToolMissingError', tool: 'gobii_read_agent_resource', message: expect.stringContaining('gobii-platform 2.31.0 or later') });
    await expect(lib.persistent.links()).rejects.toMatchObject({ message: expect.stringContaining('gobii-platform 2.20.0 or later') });
  });
});
