import { parseBody } from './form.js';
import { UUID_PATTERN } from './http.js';
import { appendMessage } from './persistent-routes.js';
import { inactivePayload, type PersistentAgentRecord } from './persistent-state.js';
import { PyJsonError, PyNumber, PyObject, pyDumps, pyLoads, type PyValue } from './python-json.js';
import type { Request, Route } from './route-types.js';
import type { State } from './state.js';
import { pythonIsoFormat } from './timestamps.js';

const WEBHOOK_NAME = 'emulated inbound webhook';

/**
 * POST /webhooks/inbound/agents/<webhook id>/?t=<secret> (gobii-platform api/webhooks.py,
 * inbound_agent_webhook, a plain Django view): no API key; any other method @require_POST's empty
 * 405 with `Allow: POST`; 400 without a secret, 404 for a webhook that does not exist, 409 for a
 * paused agent, 400 for a JSON body that does not parse; else the payload becomes an `other`-channel
 * message on the agent's timeline and the answer is 202. The service's webhooks are made in its
 * console, which the emulator has not, so each persistent agent has one whose id is the agent's own
 * id; any secret opens it.
 */
export function inboundWebhookRoute(state: State): Route {
  return {
    pattern: new RegExp(`^/webhooks/inbound/agents/(${UUID_PATTERN})/$`),
    public: true,
    methods: {
      POST: (request) => {
        if ((request.url.searchParams.get('t') ?? '').trim() === '') return { status: 400, body: { accepted: false, error: 'Missing webhook secret.' } };
        const id = (request.params[0] as string).toLowerCase();
        const agent = state.persistentAgents.get(id);
        if (!agent) return { status: 404, body: { accepted: false, error: 'Webhook not found.' } };
        if (!agent.is_active) return { status: 409, body: { accepted: false, ...inactivePayload(agent, request.url.origin) } };
        const payload = readPayload(request);
        if (typeof payload === 'string') return { status: 400, body: { accepted: false, error: payload } };
        const event = ingest(state, agent, id, request, payload);
        return {
          status: 202,
          body: { accepted: true, webhookId: id, webhookName: WEBHOOK_NAME, messageId: (event.data.message as { id: string }).id, queued: true, receivedAt: pythonIsoFormat(Date.parse(event.timestamp)) },
        };
      },
    },
  };
}

interface Payload {
  contentType: string;
  kind: 'json' | 'form' | 'text' | 'empty';
  body: string;
  value: PyValue | undefined;
}

/** _parse_inbound_agent_webhook_request: JSON (only application/json), a form, or text; an error's words when JSON fails. */
function readPayload(request: Request): Payload | string {
  const contentType = (request.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = request.rawBody ?? '';
  if (contentType === 'application/json') {
    if (text.trim() === '') return { contentType, kind: 'json', body: '{}', value: new PyObject(new Map()) };
    let value: PyValue;
    try {
      value = pyLoads(text, { strict: false });
    } catch (error) {
      return error instanceof PyJsonError ? 'Invalid JSON payload.' : 'Unable to parse webhook request.';
    }
    return { contentType, kind: 'json', body: pyDumps(value), value };
  }
  if (contentType === 'multipart/form-data' || contentType === 'application/x-www-form-urlencoded') {
    const parsed = parseBody(text, request.contentType);
    const form = multiValue(parsed.kind === 'form' ? parsed.values : new Map());
    return form.entries.size > 0 ? { contentType, kind: 'form', body: pyDumps(form), value: form } : { contentType, kind: 'empty', body: '', value: undefined };
  }
  return text.trim() === '' ? { contentType, kind: 'empty', body: '', value: undefined } : { contentType, kind: 'text', body: text.trim(), value: undefined };
}

/** _normalize_multivalue_mapping: a key's one value as it is, several as a list. */
function multiValue(values: Map<string, string[]>): PyObject {
  return new PyObject(new Map([...values].map(([key, list]) => [key, list.length === 1 ? (list[0] as string) : list])));
}

/** ingest_inbound_webhook_message: from webhook://source/<webhook id> to the agent's webhook://agent/<agent id>. */
function ingest(state: State, agent: PersistentAgentRecord, webhookId: string, request: Request, payload: Payload) {
  const query = new Map<string, string[]>();
  for (const [key, value] of request.url.searchParams) if (key !== 't') query.set(key, [...(query.get(key) ?? []), value]);
  const meta = {
    contentType: payload.contentType || null,
    method: 'POST',
    path: request.url.pathname,
    queryParams: toJs(multiValue(query)),
    payloadKind: payload.kind,
    payload: payload.kind === 'json' || payload.kind === 'form' ? toJs(payload.value as PyValue) : null,
  };
  const event = appendMessage(state, agent, {
    id: state.newId(),
    isOutbound: false,
    channel: 'other',
    sender: `webhook://source/${webhookId}`,
    recipient: `webhook://agent/${agent.id}`,
    subject: null,
    body: payload.body,
    source: { kind: 'webhook', label: WEBHOOK_NAME, meta },
  });
  agent.last_interaction_at = event.timestamp;
  return event;
}

/** A Python value as the timeline's JSON carries it. */
function toJs(value: PyValue): unknown {
  if (value instanceof PyNumber) return Number(value.text);
  if (value instanceof PyObject) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of value.entries) Object.defineProperty(object, key, { value: toJs(item), enumerable: true, writable: true, configurable: true });
    return object;
  }
  return Array.isArray(value) ? value.map(toJs) : value;
}
