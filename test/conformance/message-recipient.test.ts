import { describe, expect, it } from 'vitest';
import { TASK_DURATION_MS, useEmulator } from '../emulator/harness.js';

// Where a REST message goes (issue 42), read from the service's code (gobii-platform c9929bf), each
// checked against the emulator:
// - api/views.py PersistentAgentViewSet.create_message -> _resolve_agent_recipient: an explicit
//   recipient is taken as it is; without one, the agent's own endpoint on the channel (400 if none).
// - api/agent/comms/message_service.py ingest_inbound_message: get_or_create the recipient's endpoint
//   (no owner when new), owner_agent_id = get_agent_id_from_address(recipient) (None when nobody owns
//   it), and only an owned message updates last_interaction_at and dispatches processing.
// - console/agent_chat/timeline.py: the timeline selects owner_agent=agent; serialize_message_event
//   gives selfAgentName from the message's owner (null when none).
// - An agent made through the API owns its e-mail address only (ensure_default_agent_email_endpoint);
//   web://agent/<id> becomes its own through the console, its own writing on the web, or the MCP send
//   (remote_mcp._tool_send_agent_message -> inject_internal_web_message).

const h = useEmulator();
let counter = 0;
type Agent = { id: string; name: string; last_interaction_at: string | null };
type Event = { kind: string; message?: { bodyText: string; selfAgentName: string | null; isOutbound: boolean } };
const newAgent = () => h.api<Agent>('POST', '/agents/', { name: `recipient ${++counter}`, charter: 'Watch.' });
const timeline = async (id: string) => (await h.api<{ events: Event[] }>('GET', `/agents/${id}/timeline/?limit=100`)).events;
const webTasks = async (id: string) => (await h.api<{ results: unknown[] }>('GET', `/agents/${id}/web-tasks/`)).results;
const OWNER = 'emulator@example.com';

describe('a REST message to a recipient nobody owns (create_message, ingest_inbound_message)', () => {
  it("web://agent/<id> of an agent made through the API: 201, selfAgentName null, not processed, not on its timeline", async () => {
    const agent = await newAgent();
    const answer = await h.raw('POST', `/agents/${agent.id}/messages/`, { channel: 'web', sender: `web://user/42/agent/${agent.id}`, recipient: `web://agent/${agent.id}`, body: 'Lost on the way' });
    expect(answer.status).toBe(201);
    expect((answer.body as { event: Event }).event.message?.selfAgentName).toBeNull();
    h.advance(TASK_DURATION_MS * 2);
    expect((await timeline(agent.id)).some((event) => event.message?.bodyText === 'Lost on the way')).toBe(false);
    expect(await webTasks(agent.id)).toEqual([]); // no processing dispatched
    expect((await h.api<Agent>('GET', `/agents/${agent.id}/`)).last_interaction_at).toBe(agent.last_interaction_at);
    // Without a recipient: 400, the agent has no web endpoint of its own (_resolve_agent_recipient).
    const bare = await h.raw('POST', `/agents/${agent.id}/messages/`, { channel: 'web', sender: `web://user/42/agent/${agent.id}`, body: 'hi' });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ recipient: ['Agent has no web endpoint.'] });
  });
});

describe("a REST message to another agent's address (get_agent_id_from_address)", () => {
  it('is delivered to that agent: on its timeline, processed, not on the addressed one', async () => {
    const [addressed, owner] = [await newAgent(), await newAgent()];
    // The owner's own e-mail address, as its timeline shows it (the recipient of a message to it).
    const first = await h.api<{ event: { message: { recipientAddress: string } } }>('POST', `/agents/${owner.id}/messages/`, { channel: 'email', sender: OWNER, body: 'to the owner' });
    const ownerAddress = first.event.message.recipientAddress;
    const answer = await h.api<{ event: Event }>('POST', `/agents/${addressed.id}/messages/`, { channel: 'email', sender: OWNER, recipient: ownerAddress.toUpperCase(), body: 'meant for the other' });
    expect(answer.event.message?.selfAgentName).toBe(owner.name);
    expect((await timeline(addressed.id)).some((event) => event.message?.bodyText === 'meant for the other')).toBe(false);
    expect((await timeline(owner.id)).some((event) => event.message?.bodyText === 'meant for the other')).toBe(true);
    expect(await webTasks(owner.id)).toHaveLength(2);
    expect(await webTasks(addressed.id)).toEqual([]);
    // Without a recipient: the addressed agent's own e-mail address, processed (agentctl's way off the web).
    const own = await h.api<{ event: Event }>('POST', `/agents/${addressed.id}/messages/`, { channel: 'email', sender: OWNER, body: 'by e-mail' });
    expect(own.event.message?.selfAgentName).toBe(addressed.name);
    h.advance(TASK_DURATION_MS * 2);
    const events = await timeline(addressed.id);
    expect(events.some((event) => event.message?.bodyText === 'by e-mail')).toBe(true);
    expect(events.some((event) => event.message?.isOutbound)).toBe(true); // its reply
  });
});
