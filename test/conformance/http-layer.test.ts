import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../emulator/harness.js';

// The service's HTTP layer around every operation, read from its code (gobii-platform c9929bf,
// config/settings.py; DRF 3.16.1; Django's CommonMiddleware and humanize as noted) and checked
// against the emulator. Python's exact words come from test/conformance/data/ (see its README):
// json.loads's errors and dumps, DRF's replace_query_param, Django's naturaltime.

const h = useEmulator();
const data = (name: string) => JSON.parse(readFileSync(new URL(`./data/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const pythonJson = data('python-json.json') as { parseErrors: { input: string; message: string }[]; dumps: { input: string; output: string }[] };
const pageLinks = data('drf-page-links.json') as { links: { url: string; next: string; previous: string }[] };
const naturaltime = data('naturaltime.json') as { relative: { secondsAgo: number; text: string }[] };
let counter = 0;
const newAgent = () => h.api<{ id: string; name: string }>('POST', '/agents/', { name: `http layer ${++counter}` });

describe('the URL and the method (Django CommonMiddleware APPEND_SLASH; DRF APIView.dispatch)', () => {
  it('answers a path without its trailing slash 301 to the slashed URL for every method, before the API key (DEBUG is off)', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const answer = await h.raw(method, '/agents?page=2', {}, { apiKey: null });
      expect(answer.status, method).toBe(301);
      expect(answer.headers.get('location'), method).toMatch(/\/api\/v1\/agents\/\?page=2$/);
    }
    expect((await h.raw('POST', `/webhooks/inbound/agents/${'0'.repeat(8)}-0000-4000-8000-000000000000?t=x`)).status).toBe(301);
  });

  it('OPTIONS answers 200 with SimpleMetadata (name, description, renders, parses) and the Allow header (views.py APIView.options)', async () => {
    const answer = await h.raw('OPTIONS', '/agents/browser-use/');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      name: 'Browser Use Agent List',
      description: 'ViewSet for managing BrowserUseAgents.',
      renders: ['application/json', 'text/html'],
      parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    });
    expect(answer.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(answer.headers.get('vary')).toBe('Accept');
    const agent = await newAgent();
    expect((await h.raw('OPTIONS', `/agents/${agent.id}/messages/`)).body).toMatchObject({ name: 'Create message', description: '' });
    expect((await h.raw('OPTIONS', '/ping/')).body).toMatchObject({ name: 'Ping', description: 'Test API connectivity with a simple ping endpoint' });
    // initial() checks permissions for OPTIONS too.
    expect((await h.raw('OPTIONS', '/agents/', undefined, { apiKey: null })).status).toBe(403);
  });

  it('HEAD is GET on the viewsets (ViewSetMixin.as_view maps it), without a body; /ping/ (@api_view) answers HEAD 405', async () => {
    const head = await h.raw('HEAD', '/agents/browser-use/');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.contentType).toBe('application/json');
    const ping = await h.raw('HEAD', '/ping/');
    expect(ping.status).toBe(405);
    expect(ping.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it('sends Allow (the view\'s methods in Django\'s order) and Vary: Accept on every DRF answer, errors included', async () => {
    const agent = await newAgent();
    const detail = await h.raw('DELETE', `/agents/${agent.id}/timeline/`);
    expect(detail.status).toBe(405);
    expect(detail.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(detail.headers.get('vary')).toBe('Accept');
    const missing = await h.raw('GET', '/agents/00000000-0000-4000-8000-000000000000/', undefined, { apiKey: null });
    expect(missing.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(missing.headers.get('vary')).toBe('Accept');
    expect((await h.raw('GET', '/tasks/browser-use/00000000-0000-4000-8000-000000000000/cancel/')).headers.get('allow')).toBe('POST, OPTIONS');
    // Django's own answers (an unknown URL) are no DRF view's.
    expect((await h.raw('GET', '/nope/')).headers.get('allow')).toBeNull();
  });
});

describe('content negotiation (rest_framework/negotiation.py DefaultContentNegotiation.select_renderer), before authentication', () => {
  it('?format= names a renderer (json, api); any other is a bare 404, an Accept no renderer serves is 406', async () => {
    expect((await h.raw('GET', '/ping/?format=json')).status).toBe(200);
    expect(await h.raw('GET', '/ping/?format=xml', undefined, { apiKey: null })).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
    const refused = await h.raw('GET', '/ping/', undefined, { apiKey: null, headers: { accept: 'text/xml' } });
    expect(refused).toMatchObject({ status: 406, body: { detail: 'Could not satisfy the request Accept header.' }, contentType: 'application/json' });
    // q is not weighed: the most specific type wins, then the renderers' order.
    expect((await h.raw('GET', '/ping/', undefined, { headers: { accept: 'text/html;q=0.1, application/*' } })).contentType).toContain('text/html');
    expect((await h.raw('GET', '/ping/', undefined, { headers: { accept: 'application/json, text/html' } })).contentType).toBe('application/json');
    expect((await h.raw('GET', '/ping/?format=api', undefined, { headers: { accept: 'application/json' } })).status).toBe(406);
  });

  it('Accept: application/json; indent=N indents the JSON (JSONRenderer.get_indent: clamped to 8)', async () => {
    const answer = await h.raw('GET', '/ping/', undefined, { headers: { accept: 'application/json; indent=20' } });
    expect(answer.contentType).toBe('application/json');
    expect(JSON.stringify(answer.body, null, 8)).toBe(String(await rawText('/ping/', { accept: 'application/json; indent=20' })));
  });
});

async function rawText(path: string, headers: Record<string, string>): Promise<string> {
  const { send } = await import('../helpers/http.js');
  return (await send(`${h.emulator.baseUrl}${path}`, { headers: { 'x-api-key': 'emulator-key', ...headers } })).text;
}

describe('bodies (rest_framework/parsers.py JSONParser; utils/json.py strict_constant)', () => {
  it('refuses a +json media type with 415, as any type no parser takes', async () => {
    const answer = await h.raw('POST', '/agents/browser-use/', undefined, { rawBody: '{"name": "x"}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(answer).toMatchObject({ status: 415, body: { detail: 'Unsupported media type "application/merge-patch+json" in request.' } });
  });

  it("words a parse error as Python's json module does (CPython's json.loads, generated), NaN and the infinities refused", async () => {
    for (const { input, message } of pythonJson.parseErrors) {
      const answer = await h.raw('POST', '/agents/browser-use/', undefined, { rawBody: input });
      if (input === '') continue; // an empty body is no data, not a parse error
      expect(answer.body, JSON.stringify(input)).toEqual({ detail: `JSON parse error - ${message}` });
    }
  });

  it('names a trailing comma as CPython 3.13 does (the service runs python:3.13; Lib/json/decoder.py JSONObject, JSONArray)', async () => {
    const cases = [
      ['{"a": 1,}', 'Illegal trailing comma before end of object: line 1 column 8 (char 7)'],
      ['[1, 2 , ]', 'Illegal trailing comma before end of array: line 1 column 7 (char 6)'],
      ['{"é": [1,\n]}', 'Illegal trailing comma before end of array: line 1 column 9 (char 8)'],
    ];
    for (const [input, message] of cases) {
      expect((await h.raw('POST', '/agents/', undefined, { rawBody: input })).body, input).toEqual({ detail: `JSON parse error - ${message}` });
    }
  });
});

describe('authentication (config/settings.py DEFAULT_AUTHENTICATION_CLASSES; rest_framework/authentication.py TokenAuthentication)', () => {
  it('Authorization: Token <key> without X-Api-Key is the 500 of an uninstalled authtoken app; a malformed one a 403', async () => {
    const token = await h.raw('GET', '/ping/', undefined, { apiKey: null, headers: { authorization: 'Token abc' } });
    expect(token.status).toBe(500);
    expect(token.body).toMatchObject({ detail: 'Internal server error.', error_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await h.raw('GET', '/ping/', undefined, { apiKey: null, headers: { authorization: 'token' } })).body).toEqual({ detail: 'Invalid token header. No credentials provided.' });
    expect((await h.raw('GET', '/ping/', undefined, { apiKey: null, headers: { authorization: 'Token a b' } })).body).toEqual({
      detail: 'Invalid token header. Token string should not contain spaces.',
    });
    expect((await h.raw('GET', '/ping/', undefined, { apiKey: null, headers: { authorization: 'Bearer abc' } })).body).toEqual({ detail: 'Authentication credentials were not provided.' });
    // X-Api-Key comes first: with it the Token header is never read.
    expect((await h.raw('GET', '/ping/', undefined, { headers: { authorization: 'Token abc' } })).status).toBe(200);
  });
});

describe('values (rest_framework/fields.py DateTimeField.to_representation; utils/urls.py replace_query_param)', () => {
  it('writes times as isoformat() with Z: no fraction at a whole second, else microseconds', async () => {
    if (h.clock.now() % 1000 !== 0) h.advance(1000 - (h.clock.now() % 1000));
    const whole = await h.api<{ created_at: string }>('POST', '/agents/browser-use/', { name: `stamp ${++counter}` });
    expect(whole.created_at).toBe(new Date(h.clock.now()).toISOString().replace('.000Z', 'Z'));
    h.advance(123);
    const fraction = await h.api<{ created_at: string }>('POST', '/agents/browser-use/', { name: `stamp ${++counter}` });
    expect(fraction.created_at).toMatch(/T\d\d:\d\d:\d\d\.123000Z$/);
  });

  it("writes next and previous as DRF does: parameters sorted, in urlencode's spelling; the last of a repeated page or page_size counts (generated with DRF's own functions)", async () => {
    for (let i = 0; i < 3; i++) await newAgent();
    const ours = (link: string) => link.replace('http://127.0.0.1:8000/api/v1', h.emulator.baseUrl);
    for (const { url, next, previous } of pageLinks.links) {
      const page = await h.api<{ next: string; previous: string }>('GET', ours(url));
      expect(page, url).toMatchObject({ next: ours(next), previous: ours(previous) });
    }
  });
});

type MessageEvent = { kind: string; timestamp: string; message: Record<string, unknown> };
const timeline = (id: string) => h.api<{ events: MessageEvent[] }>('GET', `/agents/${id}/timeline/`);

describe('message events (console/agent_chat/timeline.py _serialize_message; api/views.py create_message)', () => {
  it('an e-mail: subject null (the API stores none), addresses stripped and lower-cased, senderName the address, deliveryStatus queued', async () => {
    const agent = await newAgent();
    const answer = await h.raw('POST', `/agents/${agent.id}/messages/`, { channel: 'email', sender: 'Emulator@Example.COM', recipient: ' Agent@Example.com ', subject: 'Hello', body: 'hi' });
    expect(answer.status).toBe(201);
    expect((answer.body as { event: MessageEvent }).event.message).toMatchObject({
      subject: null,
      senderAddress: 'emulator@example.com',
      senderName: 'emulator@example.com',
      recipientAddress: 'agent@example.com',
      relativeTimestamp: 'now',
      deliveryStatus: 'queued',
    });
  });

  it("a web message's senderName is the owner's display name (_build_user_display_name: the account's e-mail)", async () => {
    const agent = await newAgent();
    const sender = `web://user/42/agent/${agent.id}`;
    const answer = await h.raw('POST', `/agents/${agent.id}/messages/`, { channel: 'web', sender, recipient: `web://agent/${agent.id}`, body: 'hi' });
    expect((answer.body as { event: MessageEvent }).event.message).toMatchObject({ senderUserId: 42, senderName: 'emulator@example.com', senderAddress: sender });
  });

  it("relativeTimestamp is naturaltime's at the time of the request (Django's humanize, generated)", async () => {
    const agent = await newAgent();
    await h.api('POST', `/agents/${agent.id}/messages/`, { channel: 'email', sender: 'emulator@example.com', body: 'hi' });
    let elapsed = 0;
    // Up to a week: past a month Django 6's timesince counts calendar months, 3.2's (which made the data) 30 days.
    for (const { secondsAgo, text } of naturaltime.relative.filter((entry) => entry.secondsAgo < 30 * 86_400 && Number.isInteger(entry.secondsAgo))) {
      h.advance(secondsAgo * 1000 - elapsed);
      elapsed = secondsAgo * 1000;
      const first = (await timeline(agent.id)).events.find((event) => event.kind === 'message' && event.message.isOutbound === false);
      expect(first?.message.relativeTimestamp, `${secondsAgo} s`).toBe(text);
    }
  });
});

describe('the inbound agent webhook (api/webhooks.py inbound_agent_webhook, _parse_inbound_agent_webhook_request)', () => {
  const hook = (id: string, query = '?t=secret') => `/webhooks/inbound/agents/${id}/${query}`;

  it('answers any other method @require_POST\'s empty 405 with Allow: POST, before the secret is read', async () => {
    const agent = await newAgent();
    const answer = await h.raw('GET', hook(agent.id, ''), undefined, { apiKey: null });
    expect(answer).toMatchObject({ status: 405, body: '' });
    expect(answer.headers.get('allow')).toBe('POST');
  });

  it('refuses a JSON body that does not parse: 400 {"accepted": false, "error": "Invalid JSON payload."}', async () => {
    const agent = await newAgent();
    const answer = await h.raw('POST', hook(agent.id), undefined, { apiKey: null, rawBody: '{"a": ' });
    expect(answer).toMatchObject({ status: 400, body: { accepted: false, error: 'Invalid JSON payload.' } });
  });

  it('puts the payload on the timeline as an other-channel message: json.dumps(indent=2, sort_keys=True), the webhook as its source', async () => {
    const agent = await newAgent();
    const { input, output } = pythonJson.dumps[0] as { input: string; output: string };
    const answer = await h.raw('POST', hook(agent.id, '?t=secret&b=2&a=1&a=3'), undefined, { apiKey: null, rawBody: input });
    expect(answer.status).toBe(202);
    const message = (await timeline(agent.id)).events.find((event) => event.kind === 'message')?.message;
    expect(message).toMatchObject({
      id: (answer.body as { messageId: string }).messageId,
      channel: 'other',
      isOutbound: false,
      bodyText: output,
      senderAddress: `webhook://source/${agent.id}`,
      senderName: 'emulated inbound webhook',
      sourceKind: 'webhook',
      sourceLabel: 'emulated inbound webhook',
      webhookMeta: { contentType: 'application/json', method: 'POST', path: `/api/v1/webhooks/inbound/agents/${agent.id}/`, queryParams: { b: '2', a: ['1', '3'] }, payloadKind: 'json' },
    });
    const form = await h.raw('POST', hook(agent.id), undefined, { apiKey: null, rawBody: 'x=1&y=2&y=3', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(202);
    const last = (await timeline(agent.id)).events.filter((event) => event.kind === 'message').at(-1)?.message;
    expect(last).toMatchObject({ bodyText: '{\n  "x": "1",\n  "y": [\n    "2",\n    "3"\n  ]\n}', webhookMeta: { payloadKind: 'form', payload: { x: '1', y: ['2', '3'] } } });
  });

  it('writes the payload as Python does for every generated case (floats as repr, ASCII only, keys by code point)', async () => {
    const agent = await newAgent();
    for (const { input, output } of pythonJson.dumps) {
      expect((await h.raw('POST', hook(agent.id), undefined, { apiKey: null, rawBody: input })).status, input).toBe(202);
      const last = (await timeline(agent.id)).events.filter((event) => event.kind === 'message').at(-1)?.message;
      expect(last?.bodyText, input).toBe(output);
    }
  });
});
