import { UUID_PATTERN } from './http.js';
import { inactivePayload } from './persistent-state.js';
import type { Route } from './route-types.js';
import type { State } from './state.js';
import { pythonIsoFormat } from './timestamps.js';

/**
 * POST /webhooks/inbound/agents/<webhook id>/?t=<secret> (gobii-platform api/webhooks.py,
 * inbound_agent_webhook): no API key; 400 without a secret, 404 for a webhook that does not exist,
 * 409 for a paused agent, else 202 echoing the webhook's id. The service's webhooks are made in its
 * console, which the emulator has not, so each persistent agent has one whose id is the agent's own
 * id; any secret opens it. The payload is acknowledged, not added to the timeline.
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
        return {
          status: 202,
          body: { accepted: true, webhookId: id, webhookName: 'emulated inbound webhook', messageId: state.newId(), queued: true, receivedAt: pythonIsoFormat(state.clock.now()) },
        };
      },
    },
  };
}
