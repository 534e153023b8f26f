import { describe, expect, it } from 'vitest';
import { useEmulator } from '../emulator/harness.js';

// The remote MCP endpoint's rules at the HTTP and JSON-RPC level, read from the service's code
// (gobii-platform c9929bf: api/mcp_views.py GobiiMCPView, api/auth.py MCPAPIKeyAuthentication,
// api/services/remote_mcp.py), each checked against the emulator with raw requests. Each `it`
// names the service's file and function.

const h = useEmulator();
const MCP = '/mcp/';
let id = 0;

type Rpc = { jsonrpc: string; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
const rpc = (method: string, params?: unknown, init: { headers?: Record<string, string>; apiKey?: string | null } = {}) =>
  h.raw('POST', MCP, { jsonrpc: '2.0', id: ++id, method, ...(params === undefined ? {} : { params }) }, init);
const tool = async (name: string, args?: unknown) => {
  const answer = await rpc('tools/call', { name, ...(args === undefined ? {} : { arguments: args }) });
  return (answer.body as Rpc).result as { isError: boolean; structuredContent: Record<string, unknown>; content: { type: string; text: string }[] };
};

describe('keys (api/auth.py MCPAPIKeyAuthentication, DRF initial())', () => {
  it('no key is 403 before anything else; X-Api-Key or Authorization: Bearer is accepted; a wrong key is "Invalid API key"', async () => {
    expect(await rpc('ping', undefined, { apiKey: null })).toMatchObject({ status: 403, body: { detail: 'Authentication credentials were not provided.' } });
    expect((await rpc('ping', undefined, { apiKey: null, headers: { authorization: 'Bearer emulator-key' } })).body).toEqual({ jsonrpc: '2.0', id, result: {} });
    expect(await rpc('ping', undefined, { apiKey: 'wrong' })).toMatchObject({ status: 403, body: { detail: 'Invalid API key' } });
    expect(await rpc('ping', undefined, { apiKey: null, headers: { authorization: 'Bearer wrong' } })).toMatchObject({ status: 403, body: { detail: 'Invalid API key' } });
  });
});

describe('methods and the Origin check (mcp_views.py GobiiMCPView.get/options/post, _origin_is_allowed)', () => {
  it('GET is an empty 405 (no event stream) and OPTIONS a 204 with the CORS headers; Allow is the view methods', async () => {
    const get = await h.raw('GET', MCP);
    expect(get.status).toBe(405);
    expect(get.body).toBe('');
    expect(get.headers.get('allow')).toBe('GET, POST, OPTIONS');
    expect(get.headers.get('cache-control')).toBe('no-store');
    const options = await h.raw('OPTIONS', MCP, undefined, { headers: { origin: `http://${new URL(h.emulator.baseUrl).host}` } });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(options.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, X-Api-Key');
    expect(options.headers.get('access-control-max-age')).toBe('600');
    expect(options.headers.get('access-control-allow-origin')).toBe(`http://${new URL(h.emulator.baseUrl).host}`);
    expect((await h.raw('DELETE', MCP)).body).toEqual({ detail: 'Method "DELETE" not allowed.' });
  });

  it('a page of another site is refused with -32600 "Origin is not allowed." (403); the same host and a served name pass', async () => {
    for (const origin of ['https://evil.example', 'file://x', 'null']) {
      expect(await rpc('ping', undefined, { headers: { origin } })).toMatchObject({ status: 403, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Origin is not allowed.' } } });
    }
    expect((await h.raw('GET', MCP, undefined, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await rpc('ping', undefined, { headers: { origin: `http://${new URL(h.emulator.baseUrl).host}` } })).status).toBe(200);
    // ALLOWED_HOSTS matches the origin's host name whatever its port (the emulator's: loopback names).
    expect((await rpc('ping', undefined, { headers: { origin: 'http://localhost:5173' } })).status).toBe(200);
  });
});

describe('JSON-RPC framing (mcp_views.py post, _handle_json_rpc_request, _validate_mcp_headers)', () => {
  it('a body that is not JSON is -32700 (400), one that is not an object -32600 (400), both with id null', async () => {
    expect(await h.raw('POST', MCP, undefined, { rawBody: '{"jsonrpc":' })).toMatchObject({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error.' } } });
    expect(await h.raw('POST', MCP, [{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toMatchObject({ status: 400, body: { id: null, error: { code: -32600, message: 'Request body must be a single JSON-RPC object.' } } });
  });

  it('a notification (no id) or a response is accepted with an empty 202', async () => {
    const notification = await h.raw('POST', MCP, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).toBe(202);
    expect(notification.body).toBe('');
    expect((await h.raw('POST', MCP, { jsonrpc: '2.0', id: 5, result: {} })).status).toBe(202);
  });

  it('no jsonrpc "2.0" or no method is -32600 "Invalid JSON-RPC request." (400), keeping the id', async () => {
    expect(await h.raw('POST', MCP, { jsonrpc: '1.0', id: 'a', method: 'ping' })).toMatchObject({ status: 400, body: { id: 'a', error: { code: -32600, message: 'Invalid JSON-RPC request.' } } });
    expect(await h.raw('POST', MCP, undefined, { rawBody: '' })).toMatchObject({ status: 400, body: { id: null, error: { code: -32600 } } });
  });

  it('an unknown method is -32601 and params that are not an object -32602, both HTTP 200', async () => {
    expect(await rpc('prompts/list')).toMatchObject({ status: 200, body: { error: { code: -32601, message: 'Method not found: prompts/list' } } });
    expect(await rpc('tools/list', [1])).toMatchObject({ status: 200, body: { error: { code: -32602, message: 'params must be an object.' } } });
    expect(await rpc('tools/call', {})).toMatchObject({ status: 200, body: { error: { code: -32602, message: 'tools/call requires params.name.' } } });
    expect(await rpc('resources/read', {})).toMatchObject({ status: 200, body: { error: { code: -32602, message: 'resources/read requires params.uri.' } } });
  });

  it('an unknown resource is -32002 "Resource not found or inaccessible."', async () => {
    for (const uri of ['gobii://agents/00000000-0000-4000-8000-000000000000/files/00000000-0000-4000-8000-000000000001', 'file:///etc/passwd', 'gobii://agents/x/files/y']) {
      expect((await rpc('resources/read', { uri })).body).toMatchObject({ error: { code: -32002, message: 'Resource not found or inaccessible.' } });
    }
  });

  it('an Mcp-Method or Mcp-Name header that disagrees with the body is -32001 (400)', async () => {
    expect(await rpc('tools/list', undefined, { headers: { 'mcp-method': 'tools/call' } })).toMatchObject({ status: 400, body: { id, error: { code: -32001, message: "Mcp-Method header value does not match JSON-RPC method 'tools/list'." } } });
    expect(await rpc('tools/call', { name: 'gobii_list_agents' }, { headers: { 'mcp-name': 'gobii_get_agent' } })).toMatchObject({ status: 400, body: { error: { code: -32001, message: 'Mcp-Name header value does not match params.name.' } } });
    expect((await rpc('tools/call', { name: 'gobii_list_agents' }, { headers: { 'mcp-method': 'tools/call', 'mcp-name': 'gobii_list_agents' } })).status).toBe(200);
  });

  it('initialize answers protocol 2025-11-25 whatever revision is asked, with no session header', async () => {
    const answer = await rpc('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect((answer.body as Rpc).result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'gobii', version: '2.31.0' } });
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.headers.get('vary')).toBe('Authorization, X-Api-Key, Accept');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('tool errors are results with isError (mcp_views.py tools/call, remote_mcp.py call_tool and helpers)', () => {
  it('an unknown tool, arguments that are not an object, and an undeclared argument', async () => {
    expect((await tool('gobii_nope')).structuredContent).toEqual({ status: 'error', message: 'Unknown tool: gobii_nope' });
    expect((await tool('gobii_list_agents', [1])).structuredContent).toEqual({ status: 'error', message: 'Tool arguments must be an object.' });
    const unknown = await tool('gobii_get_agent', { agent_id: 'x', extra: 1, another: 2 });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ message: 'Unsupported tool argument(s).', details: { unsupported_fields: ['another', 'extra'], supported_fields: ['agent_id', 'organization_id', 'user_id'] } });
  });

  it('the error text is the structured content as json.dumps(indent=2) writes it (make_tool_result)', async () => {
    const result = await tool('gobii_nope');
    expect(result.content).toEqual([{ type: 'text', text: '{\n  "status": "error",\n  "message": "Unknown tool: gobii_nope"\n}' }]);
  });

  it('user_id or organization_id from an ordinary key is admin_scope_required (_resolve_mcp_scope)', async () => {
    const result = await tool('gobii_list_agents', { user_id: 7, organization_id: '' });
    expect(result.structuredContent).toEqual({ status: 'error', message: 'user_id and organization_id are restricted to staff/superuser API keys.', details: { code: 'admin_scope_required', fields: ['user_id'] } });
    expect((await tool('gobii_list_agents', { user_id: null })).isError).toBe(false);
  });

  it('ids, integers and booleans are read as the Python helpers read them (_parse_uuid, _bounded_int, _optional_bool)', async () => {
    expect((await tool('gobii_get_agent', { agent_id: 'not-a-uuid' })).structuredContent).toEqual({ status: 'error', message: 'agent_id must be a valid UUID.' });
    expect((await tool('gobii_get_agent', { agent_id: '{00000000000040008000000000000000}' })).structuredContent).toMatchObject({ message: 'Agent not found or inaccessible.' });
    expect((await tool('gobii_list_agents', { page_size: 0 })).structuredContent).toEqual({ status: 'error', message: 'page_size must be between 1 and 100.' });
    expect((await tool('gobii_list_agents', { page: true })).structuredContent).toEqual({ status: 'error', message: 'page must be an integer.' });
    expect((await tool('gobii_list_agents', { page: '2' })).isError).toBe(false);
  });

  it('a wait or timeline cursor must be a Gobii timeline cursor; the wait bounds its timeout to 0..30 (_validate_timeline_cursor)', async () => {
    const agent = await h.api<{ id: string }>('POST', '/agents/', { name: 'cursor rules', charter: 'x' });
    expect((await tool('gobii_get_agent_timeline', { agent_id: agent.id, cursor: 'abc' })).structuredContent).toEqual({ status: 'error', message: 'cursor/after_cursor must be a valid Gobii timeline cursor.' });
    expect((await tool('gobii_wait_for_agent_event', { agent_id: agent.id, after_cursor: '1:user_action:2' })).structuredContent).toEqual({ status: 'error', message: 'after_cursor must be a valid Gobii timeline cursor.' });
    expect((await tool('gobii_wait_for_agent_event', { agent_id: agent.id, timeout_seconds: 31 })).structuredContent).toEqual({ status: 'error', message: 'timeout_seconds must be between 0 and 30.' });
    expect((await tool('gobii_wait_for_agent_event', { agent_id: agent.id, filters: { nope: 1 } })).structuredContent).toMatchObject({ message: 'filters contains unsupported fields.', details: { unsupported_fields: ['nope'] } });
    // timeout 0 with nothing to match answers at once.
    expect((await tool('gobii_wait_for_agent_event', { agent_id: agent.id, timeout_seconds: 0, event_types: ['steps'] })).structuredContent).toMatchObject({ matched: false, timed_out: true, waited_seconds: 0 });
  });

  it('files: a path must name a file, base64 must be valid, a message attachment must exist (write_bytes_to_dir, resolve_filespace_attachments)', async () => {
    const agent = await h.api<{ id: string }>('POST', '/agents/', { name: 'file rules', charter: 'x' });
    expect((await tool('gobii_upload_agent_file', { agent_id: agent.id, path: '/uploads/', content_base64: 'aGk=' })).structuredContent).toEqual({ status: 'error', message: 'path must include a filename.', details: { status: 'error', message: 'path must include a filename.' } });
    expect((await tool('gobii_upload_agent_file', { agent_id: agent.id, path: '/a.txt', content_base64: 'a' })).structuredContent).toEqual({ status: 'error', message: 'content_base64 must be valid base64.' });
    expect((await tool('gobii_send_agent_message', { agent_id: agent.id, body: 'x', attachment_file_paths: ['/missing.txt'] })).structuredContent).toEqual({ status: 'error', message: 'Attachment not found in default filespace: /missing.txt' });
    const tooMany = Array.from({ length: 11 }, (_, n) => ({ path: `/f${n}.txt`, content_base64: 'aGk=' }));
    expect((await tool('gobii_send_agent_message', { agent_id: agent.id, body: 'x', attachments: tooMany })).structuredContent).toMatchObject({ message: 'attachments supports at most 10 files.', details: { field: 'attachments', maximum: 10 } });
    const badField = await tool('gobii_send_agent_message', { agent_id: agent.id, body: 'x', attachments: [{ path: '/a.txt', content_base64: 'aGk=', name: 'a' }] });
    expect(badField.structuredContent).toMatchObject({ details: { field: 'attachments[0]', unsupported_fields: ['name'], supported_fields: ['content_base64', 'mime_type', 'overwrite', 'path'] } });
    // Nothing was written by the refused messages (every inline file is checked first).
    expect((await tool('gobii_list_agent_files', { agent_id: agent.id })).structuredContent.nodes).toEqual([]);
  });

  it('resources are read only through the agent they name; an image is MCP image content; an attachment has its own URI (remote_mcp_resources.py read_agent_resource)', async () => {
    const a = await h.api<{ id: string }>('POST', '/agents/', { name: 'resource rules a', charter: 'x' });
    const b = await h.api<{ id: string }>('POST', '/agents/', { name: 'resource rules b', charter: 'x' });
    const png = Buffer.from('\x89PNG\r\n\x1a\nsmall-image-fixture', 'latin1').toString('base64');
    const upload = (await tool('gobii_upload_agent_file', { agent_id: a.id, path: '/img/dot.png', content_base64: png, mime_type: 'IMAGE/PNG' })).structuredContent as { node_id: string; resource_uri: string };
    const image = await tool('gobii_read_agent_resource', { uri: upload.resource_uri });
    expect(image.content[1]).toEqual({ type: 'image', data: png, mimeType: 'image/png' });
    const crossed = `gobii://agents/${b.id}/files/${upload.node_id}`;
    expect((await tool('gobii_read_agent_resource', { uri: crossed })).structuredContent).toEqual({ status: 'error', message: 'Resource not found or inaccessible.' });
    expect((await rpc('resources/read', { uri: crossed })).body).toMatchObject({ error: { code: -32002 } });
    const sent = (await tool('gobii_send_agent_message', { agent_id: a.id, body: 'look', attachment_file_paths: ['/img/dot.png'], trigger_processing: false })).structuredContent as { timeline_event: { message: { attachments: { id: string }[] } } };
    const attachment = `gobii://agents/${a.id}/attachments/${sent.timeline_event.message.attachments[0]?.id}`;
    expect((await rpc('resources/read', { uri: attachment })).body).toMatchObject({ result: { contents: [{ uri: attachment, mimeType: 'image/png', blob: png }] } });
  });

  it('the debug trace redacts credential-shaped text and secret-named keys (agent_debug_trace.py sanitize_text, _is_sensitive_key)', async () => {
    const agent = await h.api<{ id: string }>('POST', '/agents/', { name: 'trace rules', charter: 'x' });
    await tool('gobii_send_agent_message', { agent_id: agent.id, body: 'token: abcdefghijklmnop and Bearer abcdefgh12345678 and ghp_abcdefghijklmnopqrstuvwxyz', trigger_processing: false });
    const trace = (await tool('gobii_get_agent_debug_trace', { agent_id: agent.id })).structuredContent as { audit_events: { body_text: string }[]; redaction: unknown };
    expect(trace.audit_events[0]?.body_text).toBe('token=[REDACTED] and [REDACTED] and [REDACTED]');
    expect(trace.redaction).toMatchObject({ mode: 'standard', replacement: '[REDACTED]' });
    expect((await tool('gobii_get_agent_debug_trace', { agent_id: agent.id, detail: 'loud' })).structuredContent).toMatchObject({ message: 'detail must be one of summary, standard, or verbose.' });
    expect((await tool('gobii_get_agent_debug_trace', { agent_id: agent.id, since: '2026-01-01T00:00:00Z', recent_minutes: 5 })).structuredContent).toMatchObject({ message: 'Use either since or recent_minutes, not both.' });
  });
});
