import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock, State } from '../../src/emulator/index.js';
import { readStateFile, snapshotProblem } from '../../src/emulator/state-file.js';
import { testClient } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { TASK_DURATION_MS, useEmulator } from './harness.js';

// The emulator's remote MCP endpoint (POST /api/v1/mcp/, the service's api/mcp_views.py
// GobiiMCPView over api/services/remote_mcp.py) through the official SDK's Client and its
// Streamable HTTP transport, as an assistant reaches the service: the 16 tools, each answering
// as the service's code does, on the same records as the REST routes.

const h = useEmulator();
// `client` listed the tools, so the SDK checks every answer against its tool's outputSchema.
// `bare` did not: the SDK (1.32) checks an error result's structuredContent against the schema
// too, and the service's error results ({status, message, details}) do not match the tools' schemas.
const client = testClient('remote-mcp-test');
const bare = testClient('remote-mcp-bare');
let counter = 0;

const transport = () => new StreamableHTTPClientTransport(new URL(`${h.emulator.baseUrl}/mcp/`), { requestInit: { headers: { 'X-Api-Key': 'emulator-key' } } });
beforeAll(async () => {
  await Promise.all([client.connect(transport()), bare.connect(transport())]);
  await client.listTools();
});
afterAll(() => Promise.all([client.close(), bare.close()]));

// remote_mcp.py TOOL_DEFINITIONS, in its order.
const TOOL_NAMES = [
  'gobii_list_agents', 'gobii_get_agent', 'gobii_create_agent', 'gobii_update_agent', 'gobii_archive_agent', 'gobii_get_agent_config_options',
  'gobii_list_agent_links', 'gobii_link_agents', 'gobii_unlink_agents', 'gobii_send_agent_message', 'gobii_get_agent_timeline',
  'gobii_get_agent_debug_trace', 'gobii_wait_for_agent_event', 'gobii_read_agent_resource', 'gobii_list_agent_files', 'gobii_upload_agent_file',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the test asserts them
type Content = Record<string, any>;
/** A call whose answer is not checked against the tool's outputSchema (for error results). */
async function call(name: string, args: Record<string, unknown> = {}): Promise<{ result: CallToolResult; content: Content }> {
  const result = (await bare.callTool({ name, arguments: args })) as CallToolResult;
  return { result, content: result.structuredContent as Content };
}
/** A call that must succeed, its answer checked against the tool's outputSchema. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<Content> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as Content;
}
const newAgent = async (body: Record<string, unknown> = {}) => (await ok('gobii_create_agent', { name: `MCP agent ${++counter}`, charter: 'Watch the news.', ...body })).agent as Content;

/** Resolves once the emulator's clock holds `count` more timers than `before` (a wait has armed its deadline). */
const timersArmed = (before: number, count = 1) => vi.waitFor(() => expect(h.clock.timers).toBeGreaterThanOrEqual(before + count), { interval: 2 });

describe('the handshake and the tool list', () => {
  it('initialize answers the service serverInfo, protocol revision and instructions (mcp_views.py _handle_json_rpc_request)', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'gobii', title: 'Gobii', version: '2.31.0' });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } });
    expect(client.getInstructions()).toContain('Authenticate every request with your Gobii API key.');
  });

  it('tools/list holds the 16 gobii_* tools as remote_mcp.py TOOL_DEFINITIONS defines them', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(16);
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const send = tools.find((tool) => tool.name === 'gobii_send_agent_message');
    expect(send?.inputSchema.required).toEqual(['agent_id', 'body']);
    expect((send?.inputSchema.properties as Content).attachments.maxItems).toBe(10);
    const debug = tools.find((tool) => tool.name === 'gobii_get_agent_debug_trace');
    expect(debug?.description).toContain('sanitized');
  });

  it('resources/list is empty and the templates name the gobii:// files and attachments (list_resource_templates)', async () => {
    expect((await client.listResources()).resources).toEqual([]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['gobii://agents/{agent_id}/files/{node_id}', 'gobii://agents/{agent_id}/attachments/{attachment_id}']);
  });
});

describe('agents: one set of records with the REST routes', () => {
  it('an agent made through MCP is the REST API agent, and one made over REST is listed by MCP (_tool_create_agent, _tool_list_agents)', async () => {
    const agent = await newAgent();
    expect(agent).toMatchObject({ charter: 'Watch the news.', schedule: null, is_active: true, planning_state: 'skipped', user_id: '42', preferred_llm_tier: 'standard' });
    // _serialize_agent writes Python's isoformat: +00:00, not Z.
    expect(agent.created_at).toMatch(/\+00:00$/);
    expect(await h.api('GET', `/agents/${agent.id}/`)).toMatchObject({ id: agent.id, name: agent.name, charter: 'Watch the news.' });
    const rest = await h.api<{ id: string }>('POST', '/agents/', { name: `REST agent ${++counter}`, charter: 'x' });
    const listed = await ok('gobii_list_agents', { page_size: 100 });
    expect(listed.agents.map((item: Content) => item.id)).toEqual(expect.arrayContaining([agent.id, rest.id]));
    expect(listed).toMatchObject({ page: 1, page_size: 100, has_next: false });
    expect(listed).not.toHaveProperty('access');
  });

  it('gobii_get_agent and gobii_update_agent change only the supplied fields, through the REST checks (_tool_update_agent)', async () => {
    const agent = await newAgent({ daily_credit_limit: 7 });
    expect(agent).toMatchObject({ daily_credit_limit: 7, daily_credit_soft_target: '7', daily_credit_hard_limit: '14.00' });
    const updated = (await ok('gobii_update_agent', { agent_id: agent.id, charter: 'Updated through MCP.', preferred_llm_tier: 'Premium' })).agent;
    expect(updated).toMatchObject({ charter: 'Updated through MCP.', preferred_llm_tier: 'premium', daily_credit_limit: 7, name: agent.name });
    expect((await ok('gobii_get_agent', { agent_id: agent.id.toUpperCase() })).agent.charter).toBe('Updated through MCP.');
    // null clears the limit and its derived figures; "" as schedule is none (_normalize_agent_config_payload).
    const cleared = (await ok('gobii_update_agent', { agent_id: agent.id, daily_credit_limit: null, schedule: '' })).agent;
    expect(cleared).toMatchObject({ daily_credit_limit: null, daily_credit_soft_target: null, daily_credit_hard_limit: null, schedule: null, preferred_llm_tier: 'premium' });
    expect((await call('gobii_update_agent', { agent_id: agent.id, daily_credit_limit: 7.5 })).content).toEqual({ status: 'error', message: 'daily_credit_limit must be a positive integer or null.', details: { field: 'daily_credit_limit' } });
    const bad = await call('gobii_update_agent', { agent_id: agent.id, schedule: 'not a schedule' });
    expect(bad.result.isError).toBe(true);
    expect(bad.content).toMatchObject({ status: 'error', message: 'Agent update failed.', details: { schedule: expect.any(Array) } });
    const empty = await call('gobii_update_agent', { agent_id: agent.id });
    expect(empty.content).toEqual({ status: 'error', message: 'At least one mutable field is required.' });
  });

  it('gobii_archive_agent soft-deletes: the answer shows it paused and expired, and REST no longer finds it (_tool_archive_agent)', async () => {
    const agent = await newAgent({ schedule: '@daily' });
    const peer = await newAgent();
    await ok('gobii_link_agents', { agent_id: agent.id, peer_agent_id: peer.id });
    const archived = await ok('gobii_archive_agent', { agent_id: agent.id });
    // Its peer links go with it.
    expect((await ok('gobii_list_agent_links', { agent_id: peer.id })).links).toEqual([]);
    expect(archived).toMatchObject({ status: 'archived', changed: true, agent: { id: agent.id, is_active: false, life_state: 'expired', schedule: null } });
    expect((await h.raw('GET', `/agents/${agent.id}/`)).status).toBe(404);
    const again = await call('gobii_get_agent', { agent_id: agent.id });
    expect(again.content).toMatchObject({ message: 'Agent not found or inaccessible.', details: { code: 'agent_not_found_or_inaccessible', field: 'agent_id' } });
  });

  it('gobii_get_agent_config_options lists the tiers and the daily credit settings (_tool_get_agent_config_options)', async () => {
    const agent = await newAgent();
    const options = await ok('gobii_get_agent_config_options', { agent_id: agent.id });
    expect(options.owner).toEqual({ type: 'user', id: 42 });
    expect(options.agent.id).toBe(agent.id);
    expect(options.fields.preferred_llm_tier.options.map((tier: Content) => tier.key)).toEqual(['standard', 'premium', 'max', 'ultra', 'ultra_max']);
    expect(options.fields.daily_credit_limit).toMatchObject({ type: 'integer_or_null', null_behavior: 'unlimited', hard_limit_multiplier: '2' });
    expect(options.unsupported_remote_mcp_v1_fields).toContain('ad_hoc_runtime_session');
    expect((await ok('gobii_get_agent_config_options')).agent).toBeNull();
  });

  it('an error result fails the SDK client check once the tools are listed: the service answers a schema-less error shape (make_tool_result)', async () => {
    await expect(client.callTool({ name: 'gobii_get_agent', arguments: { agent_id: 'nope' } })).rejects.toThrow(/does not match the tool's output schema/);
  });

  it('an argument the tool does not declare is a structured error naming it (_reject_unknown_arguments)', async () => {
    const { result, content } = await call('gobii_create_agent', { name: 'Unsupported Field', runtime_session: 'fake' });
    expect(result.isError).toBe(true);
    expect(content.details.unsupported_fields).toEqual(['runtime_session']);
    expect(content.details.supported_fields).toContain('charter');
    // The text content is the same object as Python's json.dumps(indent=2) writes it.
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(content);
    expect((result.content[0] as { text: string }).text).toContain('\n  "status": "error"');
  });
});

describe('messages, the timeline and the wait', () => {
  it('gobii_send_agent_message stores an inbound message on channel "mcp" that REST shows too; the agent then owns its web address (inject_internal_web_message)', async () => {
    const agent = await newAgent();
    // Before: the agent has no web endpoint of its own, so a REST web message needs its recipient.
    const webMessage = { channel: 'web', sender: `web://user/42/agent/${agent.id}`, body: 'over REST' };
    expect((await h.raw('POST', `/agents/${agent.id}/messages/`, webMessage)).body).toEqual({ recipient: ['Agent has no web endpoint.'] });
    const sent = await ok('gobii_send_agent_message', { agent_id: agent.id, body: '  hello agent  ' });
    expect(sent).toMatchObject({ status: 'queued', accepted_state: 'queued', agent_id: agent.id, actor: { type: 'external', source: 'remote_mcp' }, attachment_count: 0, uploaded_attachments: [] });
    expect(sent.latest_cursor).toBe(sent.cursor);
    expect(sent.message).toMatchObject({ id: sent.message_id, owner_agent_id: agent.id, is_outbound: false, body: 'hello agent', parent_id: null });
    expect(sent.timeline_event.message).toMatchObject({ channel: 'mcp', sourceKind: 'mcp', sourceLabel: 'Gobii MCP', senderName: 'Gobii MCP', senderUserId: null, senderAddress: null });
    const rest = await h.api<{ events: Content[] }>('GET', `/agents/${agent.id}/timeline/`);
    expect(rest.events.at(-1)).toMatchObject({ kind: 'message', cursor: sent.cursor, message: { id: sent.message_id, channel: 'mcp' } });
    // After: it owns web://agent/<id>, which a REST web message now reaches by default.
    expect((await h.raw('POST', `/agents/${agent.id}/messages/`, webMessage)).status).toBe(201);
  });

  it('the agent answers an MCP message as a REST one, and gobii_wait_for_agent_event wakes on the reply (_tool_wait_for_agent_event)', async () => {
    const agent = await newAgent();
    const sent = await ok('gobii_send_agent_message', { agent_id: agent.id, body: 'summarise' });
    const before = h.clock.timers;
    const waiting = ok('gobii_wait_for_agent_event', { agent_id: agent.id, after_cursor: sent.cursor, event_types: ['message'], filters: { from_actor_type: 'agent' }, timeout_seconds: 30 });
    await timersArmed(before);
    h.advance(TASK_DURATION_MS);
    const woken = await waiting;
    expect(woken).toMatchObject({ matched: true, timed_out: false, waited_seconds: TASK_DURATION_MS / 1000 });
    expect(woken.events).toHaveLength(1);
    expect(woken.events[0].message).toMatchObject({ isOutbound: true, channel: 'web', inReplyToMessageId: sent.message_id, bodyText: expect.stringContaining('summarise') });
    expect(woken.latest_cursor).toBe(woken.events[0].cursor);
    // The same events on the timeline tool, strictly after the message's cursor.
    const after = await ok('gobii_get_agent_timeline', { agent_id: agent.id, after_cursor: sent.cursor });
    expect(after.events.map((event: Content) => event.kind)).toEqual(['steps', 'message']);
    expect(after).toMatchObject({ has_more: false, latest_cursor: woken.latest_cursor, processing_active: false });
    // A cursor the emulator did not write (the service's own, with a message UUID) is placed by its time.
    const micros = sent.cursor.split(':')[0];
    const foreign = await ok('gobii_get_agent_timeline', { agent_id: agent.id, after_cursor: `${micros}:message:${sent.message_id}` });
    expect(foreign.events.map((event: Content) => event.kind)).toEqual(['steps', 'message']);
  });

  it('a wait with nothing new times out on the emulator clock and keeps the cursor (WAIT bounds of remote_mcp.py)', async () => {
    const agent = await newAgent();
    const first = await ok('gobii_get_agent_timeline', { agent_id: agent.id });
    const before = h.clock.timers;
    const waiting = ok('gobii_wait_for_agent_event', { agent_id: agent.id, after_cursor: first.latest_cursor, timeout_seconds: 3 });
    await timersArmed(before);
    h.advance(3000);
    expect(await waiting).toEqual({ matched: false, timed_out: true, events: [], next_cursor: first.latest_cursor, latest_cursor: first.latest_cursor, waited_seconds: 3 });
  });

  it('trigger_processing false stores the message without work (status "stored")', async () => {
    const agent = await newAgent();
    const sent = await ok('gobii_send_agent_message', { agent_id: agent.id, body: 'just note it', trigger_processing: false });
    expect(sent.status).toBe('stored');
    expect((await ok('gobii_get_agent_timeline', { agent_id: agent.id })).processing_active).toBe(false);
  });

  it('a paused agent refuses the message with the inactive payload and stores nothing (_tool_send_agent_message)', async () => {
    const agent = await newAgent();
    await ok('gobii_update_agent', { agent_id: agent.id, is_active: false });
    const events = h.emulator.state.persistentAgents.get(agent.id)!.events.length;
    const { result, content } = await call('gobii_send_agent_message', { agent_id: agent.id, body: 'hi' });
    expect(result.isError).toBe(true);
    expect(content).toMatchObject({ message: 'This agent is paused and can’t receive messages right now.', details: { code: 'agent_inactive' } });
    expect(h.emulator.state.persistentAgents.get(agent.id)!.events).toHaveLength(events);
  });
});

describe('links, files and the debug trace', () => {
  it('link, list and unlink two agents; the health names an expired agent (_tool_link_agents, AgentPeerLink.health_summary)', async () => {
    const a = await newAgent();
    const b = await newAgent();
    const linked = await ok('gobii_link_agents', { agent_id: a.id, peer_agent_id: b.id, messages_per_window: 12, window_hours: 4 });
    expect(linked).toMatchObject({ created: true, link: { is_enabled: true, messages_per_window: 12, window_hours: 4, pair_key: [a.id, b.id].sort().join('::'), health: { status: 'healthy', issues: [] } } });
    expect((await ok('gobii_link_agents', { agent_id: b.id, peer_agent_id: a.id })).created).toBe(false);
    await h.api('PATCH', `/agents/${b.id}/`, { life_state: 'expired' });
    const listed = await ok('gobii_list_agent_links', { agent_id: a.id });
    expect(listed.links).toHaveLength(1);
    expect(listed.links[0].health).toEqual({ status: 'unhealthy', issues: [{ agent_id: b.id, reason: 'expired' }] });
    expect(await ok('gobii_unlink_agents', { peer_link_id: linked.link.id })).toMatchObject({ status: 'unlinked', link: { id: linked.link.id } });
    expect((await ok('gobii_list_agent_links', { agent_id: a.id })).links).toEqual([]);
    expect((await call('gobii_link_agents', { agent_id: a.id, peer_agent_id: a.id })).content.message).toBe('Cannot link an agent to itself.');
  });

  it('upload, list, attach and read a file through its gobii:// link (_tool_upload_agent_file, _tool_read_agent_resource)', async () => {
    const agent = await newAgent();
    const upload = await client.callTool({ name: 'gobii_upload_agent_file', arguments: { agent_id: agent.id, path: '/uploads/hello.txt', content_base64: Buffer.from('hello from mcp').toString('base64'), mime_type: 'text/plain' } });
    const uploaded = upload.structuredContent as Content;
    expect(uploaded).toMatchObject({ status: 'ok', path: '/uploads/hello.txt', filename: 'hello.txt', mime_type: 'text/plain', size_bytes: 14, resource_uri: `gobii://agents/${agent.id}/files/${uploaded.node_id}` });
    expect((upload.content as Content[])[1]).toEqual({ type: 'resource_link', uri: uploaded.resource_uri, name: 'hello.txt', mimeType: 'text/plain', size: 14 });
    const files = await ok('gobii_list_agent_files', { agent_id: agent.id });
    expect(files.nodes.map((node: Content) => [node.path, node.node_type])).toEqual([['/uploads/hello.txt', 'file'], ['/uploads', 'dir']]);
    const sent = await ok('gobii_send_agent_message', { agent_id: agent.id, body: 'see attached', attachment_file_paths: ['uploads/hello.txt'] });
    expect(sent.attachment_count).toBe(1);
    expect(sent.timeline_event.message.attachments[0]).toMatchObject({ filename: 'hello.txt', filespaceNodeId: uploaded.node_id, resource_uri: uploaded.resource_uri });
    const read = await client.readResource({ uri: uploaded.resource_uri });
    expect(read.contents).toEqual([{ uri: uploaded.resource_uri, mimeType: 'text/plain', text: 'hello from mcp' }]);
    const tool = await client.callTool({ name: 'gobii_read_agent_resource', arguments: { uri: uploaded.resource_uri } });
    expect((tool.structuredContent as Content).resource).toMatchObject({ name: 'hello.txt', size_bytes: 14 });
    expect((tool.content as Content[])[1]).toEqual({ type: 'resource', resource: { uri: uploaded.resource_uri, mimeType: 'text/plain', text: 'hello from mcp' } });
    // The same name again without overwrite is kept beside it (dedupe_name).
    expect((await ok('gobii_upload_agent_file', { agent_id: agent.id, path: '/uploads/hello.txt', content_base64: 'aGk=' })).filename).toBe('hello (2).txt');
  });

  it('gobii_get_agent_debug_trace answers the bounded, sanitised trace of the agent (build_agent_debug_trace)', async () => {
    const agent = await newAgent();
    await ok('gobii_send_agent_message', { agent_id: agent.id, body: 'my key is sk-abcdefghijklmnopqrstuvwx' });
    const trace = await ok('gobii_get_agent_debug_trace', { agent_id: agent.id, limit: 5 });
    expect(trace.agent.id).toBe(agent.id);
    expect(trace.scope).toMatchObject({ agent_id: agent.id, limit: 5, detail: 'standard' });
    expect(JSON.stringify(trace)).not.toContain('sk-abcdefghijklmnopqrstuvwx');
  });

  it('links, files, web ownership and cursors outlive a restart: they are saved with the records (--state FILE)', async () => {
    const a = await newAgent();
    const b = await newAgent();
    await ok('gobii_link_agents', { agent_id: a.id, peer_agent_id: b.id });
    const sent = await ok('gobii_send_agent_message', { agent_id: a.id, body: 'remember this', trigger_processing: false, attachments: [{ path: '/notes/a.txt', content_base64: 'aGk=', mime_type: 'text/plain' }] });
    const file = join(tempDir(), 'state.json');
    await h.emulator.save(file);
    const restored = new State(new ManualClock());
    restored.load((await readStateFile(file))!);
    expect([...restored.peerLinks.values()].map((link) => link.pair_key)).toEqual([[a.id, b.id].sort().join('::')]);
    const agent = restored.persistentAgents.get(a.id)!;
    expect(agent.webEndpointOwned).toBe(true);
    expect(agent.files?.map((node) => node.path)).toEqual(['/notes', '/notes/a.txt']);
    expect(agent.events.at(-1)?.data.message).toMatchObject({ id: sent.message_id, cursor: sent.cursor });
    // A file whose links name an agent it does not hold, or whose files are not records, is refused.
    const saved = JSON.parse(await readFile(file, 'utf8'));
    saved.peerLinks[0].agent_b = '00000000-0000-4000-8000-000000000000';
    expect(snapshotProblem(saved)).toBe('peer link 1 of 1: it names an agent the file does not hold');
    const withFiles = JSON.parse(await readFile(file, 'utf8'));
    const holder = withFiles.persistentAgents.findIndex((item: { id: string }) => item.id === a.id);
    withFiles.persistentAgents[holder].files[1].content = 42;
    expect(snapshotProblem(withFiles)).toMatch(/"content" is not base64 text$/);
  });
});
