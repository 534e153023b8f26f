import type { ApiClient, RequestOptions } from '../api/client.js';
import { persistentAgents, timelineWindowsBackwards, type MessageBody } from '../api/persistent-agents.js';
import type { TimelineEvent } from '../api/schemas/persistent-agent.js';
import { ServiceMcpMissingError, serviceMcp } from '../api/service-mcp.js';
import { InputError } from '../errors.js';

// Which way a message reaches a persistent agent so that the service processes it, decided once for
// every face (gobii-platform c9929bf):
// - REST POST /agents/{id}/messages/ (api/views.py create_message) takes an explicit recipient as it
//   is; ingest_inbound_message (api/agent/comms/message_service.py) then stores the message for
//   whoever owns that address: nobody (owner_agent=None: no processing, not on the agent's timeline,
//   still a 201) or another agent (which gets it). Left out, the recipient is the agent's own
//   endpoint on the channel (_resolve_agent_recipient): its e-mail address from creation
//   (ensure_default_agent_email_endpoint), but on the web none until the agent has written there.
// - The service's own MCP tool gobii_send_agent_message (api/services/remote_mcp.py,
//   _tool_send_agent_message -> inject_internal_web_message) makes web://agent/<id> the agent's and
//   queues processing: the way in on the web channel.
// So: web goes through the service's MCP endpoint; every other channel through REST to the agent's
// own address, and a recipient the service does not show as the agent's own is refused before
// anything is sent.

/** The owner's address on the web channel; the user id is the service's text, so only its digits are kept. */
export function ownerWebAddress(userId: unknown, agentId: string): string {
  const user = typeof userId === 'number' || typeof userId === 'string' ? String(userId).replace(/[^0-9-]/g, '') : '';
  return `web://user/${user}/agent/${agentId}`;
}

/** The agent's own address on the web channel. */
export const agentWebAddress = (agentId: string): string => `web://agent/${agentId}`;

/** A message whose sender may be left out on the web channel. */
export type MessageDraft = Omit<MessageBody, 'sender'> & { sender?: string | undefined };

/** A message the service took, and the way it went. */
export interface Delivered {
  /** `service-mcp`: the service's gobii_send_agent_message (web); `rest`: POST /agents/{id}/messages/ to the agent's own address. */
  via: 'service-mcp' | 'rest';
  /** The message as its timeline event. */
  event: TimelineEvent;
  /** Its timeline cursor: the agent's answer comes after it. */
  cursor: string | null;
  /** The service MCP's accepted state (`queued`); absent over REST. */
  status?: string;
}

type Options = Pick<RequestOptions<never>, 'signal'>;

/** How many timeline windows (of 100) are read to find an address the agent owns. */
const OWN_ADDRESS_WINDOWS = 5;

/**
 * Sends a message the way the service processes it (see above). Refuses, before anything is sent:
 * a sender missing off the web, a web sender other than the owner, a recipient that is not the
 * agent's own, metadata or a subject on the web (the service MCP send takes only the text).
 */
export async function deliverMessage(api: ApiClient, agentId: string, draft: MessageDraft, options: Options = {}): Promise<Delivered> {
  if (draft.channel === 'web') return deliverOnWeb(api, agentId, draft, options);
  if (draft.sender === undefined) throw new InputError('sender', `is needed on the ${draft.channel} channel: the owner's address there`);
  if (draft.recipient !== undefined) await checkOwnAddress(api, agentId, draft.channel, draft.recipient, options);
  const answer = await persistentAgents.message(api, agentId, { ...draft, sender: draft.sender }, options);
  const event = answer.event as TimelineEvent;
  return { via: 'rest', event, cursor: typeof event.cursor === 'string' ? event.cursor : null };
}

async function deliverOnWeb(api: ApiClient, agentId: string, draft: MessageDraft, options: Options): Promise<Delivered> {
  if (draft.recipient !== undefined && draft.recipient.trim() !== agentWebAddress(agentId)) {
    throw new InputError('recipient', `on the web channel can only be the agent's own address, ${agentWebAddress(agentId)}: the service would store a message to any other with no owner and never process it`);
  }
  if (draft.metadata !== undefined) throw new InputError('metadata', "cannot go with a web message: the service's send on the web takes only the text (send on email to pass metadata)");
  if (draft.subject !== undefined) throw new InputError('subject', 'is for email: a web message has none');
  if (draft.sender !== undefined) await checkWebSender(api, agentId, draft.sender, options);
  const sent = await serviceMcp.sendMessage(api, { agent_id: agentId, body: draft.body }, options).catch((error: unknown) => {
    if (error instanceof ServiceMcpMissingError) throw new ServiceMcpMissingError(error.baseUrl, WEB_WITHOUT_MCP);
    throw error;
  });
  const event = (sent.timeline_event ?? { kind: 'message', cursor: sent.cursor }) as TimelineEvent;
  return { via: 'service-mcp', event, cursor: sent.cursor, status: sent.status };
}

/** The service sends on the web as the key's user, the owner: a sender that names anyone else would misstate who wrote. */
export async function checkWebSender(api: ApiClient, agentId: string, sender: string, options: Options = {}): Promise<void> {
  const owner = ownerWebAddress((await persistentAgents.get(api, agentId, options)).user_id, agentId);
  if (sender.trim() !== owner) throw new InputError('sender', `on the web channel is the key's user, the agent's owner (${owner}); leave it out`);
}

/** Why nothing was sent on the web to a service without the endpoint, and what works instead (neutral words). */
export const WEB_WITHOUT_MCP =
  "a web message sent through the REST API instead would be stored with no owner and never processed (an agent made through the API has no web address of its own): send on email, from the owner's e-mail address, to the agent's own address";

/**
 * Refuses a recipient the service does not show as the agent's own on the channel: one of its own
 * messages went out from it, or a message to it reached the agent (only owned addresses do).
 */
async function checkOwnAddress(api: ApiClient, agentId: string, channel: string, recipient: string, options: Options): Promise<void> {
  const wanted = normalAddress(channel, recipient);
  let windows = 0;
  for await (const events of timelineWindowsBackwards(api, agentId, { limit: 100 }, OWN_ADDRESS_WINDOWS + 1, options)) {
    if (events.some((event) => ownAddressOf(event, channel) === wanted)) return;
    if (++windows >= OWN_ADDRESS_WINDOWS) break;
  }
  throw new InputError(
    'recipient',
    `is not an address the service shows as this agent's own on ${channel}: a message to it would be stored for its owner, if any (another agent or none, then never processed); leave it out, and the service uses the agent's own address`,
  );
}

/** The agent's own address a message event shows: the sender of what it sent, the recipient of what reached it. */
function ownAddressOf(event: TimelineEvent, channel: string): string | undefined {
  const message = event.message as Record<string, unknown> | undefined;
  if (event.kind !== 'message' || typeof message !== 'object' || message === null || message.channel !== channel) return undefined;
  const address = message.isOutbound === true ? message.senderAddress : message.recipientAddress;
  return typeof address === 'string' ? normalAddress(channel, address) : undefined;
}

/** An e-mail address without its display name, lower-cased; other addresses trimmed. */
function normalAddress(channel: string, address: string): string {
  if (channel !== 'email') return address.trim();
  const bracketed = /<([^<>]*)>\s*$/.exec(address);
  return (bracketed ? (bracketed[1] as string) : address).trim().toLowerCase();
}
