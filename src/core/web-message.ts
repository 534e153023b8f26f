import type { ApiClient, RequestOptions } from '../api/client.js';
import { persistentAgents, type MessageBody } from '../api/persistent-agents.js';
import { InputError } from '../errors.js';

// The service hears the web channel only from web://user/<owner's user id>/agent/<agent id>, and an
// agent that has not yet written on the web has no web endpoint of its own, so a web message names
// the agent's address as its recipient (gobii-platform api/models.py PersistentAgent.is_sender_whitelisted;
// api/views.py create_message). Every face fills them in the same way when the caller gives none.

/** The owner's address on the web channel; the user id is the service's text, so only its digits are kept. */
export function ownerWebAddress(userId: unknown, agentId: string): string {
  const user = typeof userId === 'number' || typeof userId === 'string' ? String(userId).replace(/[^0-9-]/g, '') : '';
  return `web://user/${user}/agent/${agentId}`;
}

/** The agent's own address on the web channel. */
export const agentWebAddress = (agentId: string): string => `web://agent/${agentId}`;

/** A message whose sender may be left out on the web channel. */
export type MessageDraft = Omit<MessageBody, 'sender'> & { sender?: string | undefined };

/**
 * The message as the service takes it: on the web channel a missing sender is the owner's web address
 * (one GET of the agent) and a missing recipient the agent's; other channels need their sender.
 */
export async function completeMessage(api: ApiClient, agentId: string, draft: MessageDraft, options: Pick<RequestOptions<never>, 'signal'> = {}): Promise<MessageBody> {
  if (draft.channel !== 'web') {
    if (draft.sender === undefined) throw new InputError('sender', `is needed on the ${draft.channel} channel: the owner's address there`);
    return { ...draft, sender: draft.sender };
  }
  const sender = draft.sender ?? ownerWebAddress((await persistentAgents.get(api, agentId, options)).user_id, agentId);
  return { ...draft, sender, recipient: draft.recipient ?? agentWebAddress(agentId) };
}
