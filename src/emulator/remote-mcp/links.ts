import type { PersistentAgentRecord } from '../persistent-state.js';
import type { PeerLink, State } from '../state.js';
import { agentAccess, agentRef, checkScope } from './access.js';
import { boundedInt, isoformat, parseUuid, ToolError, truthy, type Args } from './args.js';
import type { ToolHandler } from './tool-result.js';

// Peer-agent links (remote_mcp.py _tool_list_agent_links, _tool_link_agents, _tool_unlink_agents;
// api/models.py AgentPeerLink): one link per pair of agents (pair_key), made or re-enabled by
// link, removed by unlink, gone with an archived agent.

export const LINK_TOOLS: Record<string, ToolHandler> = {
  gobii_list_agent_links: ({ state }, args) => {
    checkScope(args);
    const agent = truthy(args.agent_id) ? agentAccess(state, args.agent_id, args) : null;
    const links = [...state.peerLinks.values()].filter((link) => agent === null || link.agent_a === agent.id || link.agent_b === agent.id);
    // Newest first (order_by("-created_at")), ties in the order they were made, newest first.
    return { links: links.reverse().map((link) => serializeLink(state, link)) };
  },
  gobii_link_agents: ({ state }, args) => {
    const agent = agentAccess(state, args.agent_id, args);
    const peer = agentAccess(state, args.peer_agent_id, args);
    if (agent.id === peer.id) throw new ToolError('Cannot link an agent to itself.');
    const messagesPerWindow = boundedInt(args.messages_per_window ?? 30, 'messages_per_window', 1, 500);
    const windowHours = boundedInt(args.window_hours ?? 6, 'window_hours', 1, 168);
    const pairKey = [agent.id, peer.id].sort().join('::');
    const existing = [...state.peerLinks.values()].find((link) => link.pair_key === pairKey);
    const stamp = state.now();
    const link: PeerLink = existing ?? { id: state.newId(), agent_a: agent.id, agent_b: peer.id, pair_key: pairKey, is_enabled: true, messages_per_window: 0, window_hours: 0, created_at: stamp, updated_at: stamp };
    Object.assign(link, { messages_per_window: messagesPerWindow, window_hours: windowHours, is_enabled: true, updated_at: stamp });
    state.peerLinks.set(link.id, link);
    state.touch();
    return { link: serializeLink(state, link), created: existing === undefined };
  },
  gobii_unlink_agents: ({ state }, args) => {
    const link = findLink(state, args);
    const payload = serializeLink(state, link);
    state.peerLinks.delete(link.id);
    state.touch();
    return { status: 'unlinked', link: payload };
  },
};

/** _resolve_peer_link_access: by peer_link_id among the user's agents' links, else by the pair of agents. */
function findLink(state: State, args: Args): PeerLink {
  checkScope(args);
  let link: PeerLink | undefined;
  if (truthy(args.peer_link_id)) {
    const id = parseUuid(args.peer_link_id, 'peer_link_id');
    link = state.peerLinks.get(id);
  } else {
    const agent = agentAccess(state, args.agent_id, args);
    const peer = agentAccess(state, args.peer_agent_id, args);
    const pairKey = [agent.id, peer.id].sort().join('::');
    link = [...state.peerLinks.values()].find((item) => item.pair_key === pairKey);
  }
  if (!link) throw new ToolError('Peer link not found or inaccessible.', { code: 'peer_link_not_found_or_inaccessible' });
  return link;
}

/** _serialize_peer_link, with AgentPeerLink.health_summary. */
function serializeLink(state: State, link: PeerLink): Record<string, unknown> {
  const a = state.persistentAgents.get(link.agent_a) as PersistentAgentRecord;
  const b = state.persistentAgents.get(link.agent_b) as PersistentAgentRecord;
  const issues = [a, b].flatMap((agent) => {
    const reason = agent.life_state !== 'active' ? agent.life_state : !agent.is_active ? 'inactive' : undefined;
    return reason ? [{ agent_id: agent.id, reason }] : [];
  });
  return {
    id: link.id,
    agent_a: agentRef(a),
    agent_b: agentRef(b),
    health: { status: issues.length > 0 ? 'unhealthy' : 'healthy', issues },
    is_enabled: link.is_enabled,
    messages_per_window: link.messages_per_window,
    window_hours: link.window_hours,
    feature_flag: null,
    pair_key: link.pair_key,
    created_by_user_id: 42,
    created_at: isoformat(link.created_at),
    updated_at: isoformat(link.updated_at),
  };
}
