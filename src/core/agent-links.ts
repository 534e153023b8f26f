// Peer links between two persistent agents (the service's gobii_link_agents / gobii_unlink_agents):
// the checks every face shares before a call, errors naming the field in the tools' words.
import { SERVICE_LIMITS } from '../contract/limits.js';
import { isUuid } from '../contract/validate.js';
import { InputError } from '../errors.js';

/** A link's message budget: the service's defaults are 30 messages per 6 hours. */
export interface LinkBudget {
  messages_per_window?: number;
  window_hours?: number;
}

/** Which link to remove: its id, or the two agents it joins. */
export type LinkRef = { peer_link_id: string } | { agent_id: string; peer_agent_id: string };

function id(field: string, value: string): string {
  if (!isUuid(value)) throw new InputError(field, `"${value}" is not a UUID (ids look like 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f)`);
  return value.toLowerCase();
}

function bounded(field: string, value: number | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new InputError(field, `must be a whole number from 1 to ${max}, got ${value}`);
  return value;
}

/** The two agents must differ: the service refuses to link an agent to itself. */
function pair(agent: string, peer: string): { agent_id: string; peer_agent_id: string } {
  const [agent_id, peer_agent_id] = [id('agent_id', agent), id('peer_agent_id', peer)];
  if (agent_id === peer_agent_id) throw new InputError('peer_agent_id', 'is the agent itself: a link joins two different agents');
  return { agent_id, peer_agent_id };
}

/** The arguments of gobii_link_agents: creates the link, or enables it again with this budget. */
export function linkArguments(agent: string, peer: string, budget: LinkBudget = {}): Record<string, unknown> {
  const args: Record<string, unknown> = pair(agent, peer);
  const messages = bounded('messages_per_window', budget.messages_per_window, SERVICE_LIMITS.linkMessagesPerWindow);
  const hours = bounded('window_hours', budget.window_hours, SERVICE_LIMITS.linkWindowHours);
  if (messages !== undefined) args.messages_per_window = messages;
  if (hours !== undefined) args.window_hours = hours;
  return args;
}

/** The arguments of gobii_unlink_agents: the link's id, or the pair of agents. */
export function unlinkArguments(ref: { peer_link_id?: string; agent_id?: string; peer_agent_id?: string }): LinkRef {
  if (ref.peer_link_id !== undefined) {
    if (ref.agent_id !== undefined || ref.peer_agent_id !== undefined) throw new InputError('peer_link_id', 'names the link alone: give the link, or the two agents, not both');
    return { peer_link_id: id('peer_link_id', ref.peer_link_id) };
  }
  if (ref.agent_id === undefined || ref.peer_agent_id === undefined) throw new InputError('peer_agent_id', 'is needed beside the agent: a link joins two (or name the link by its id alone)');
  return pair(ref.agent_id, ref.peer_agent_id);
}

/** The arguments of gobii_list_agent_links: every link of the agents the key reaches, or one agent's. */
export function listLinksArguments(agent?: string): Record<string, unknown> {
  return agent === undefined ? {} : { agent_id: id('agent_id', agent) };
}
