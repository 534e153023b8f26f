import { CONTACT_APPROVAL_MODES, MESSAGE_CHANNELS } from '../contract/enums.js';
import { createHash } from 'node:crypto';
import { USER_EMAIL } from './user.js';
import type { TimelineEvent } from './timeline.js';

// Persistent agents as the emulator stores them, their API shapes, and the emulator's messaging
// conventions (which channels the agent can receive on, who is on the allowlist).

/** The owner's id as the reference deployment sends it: a numeric string. */
export const OWNER_USER_ID = '42';
/** The owner's phone number: on every agent's allowlist, with the owner's email. */
export const OWNER_PHONE = '+15555550100';

export const CHANNELS = MESSAGE_CHANNELS;
export type Channel = (typeof MESSAGE_CHANNELS)[number];

export type LifeState = 'active' | 'expired';
export type WhitelistPolicy = 'default' | 'manual';
export { CONTACT_APPROVAL_MODES } from '../contract/enums.js';
export type ContactApprovalMode = (typeof CONTACT_APPROVAL_MODES)[number];
/** The service's intelligence tiers (api/agent/core/llm_config.py); an agent gets standard by default. */
export const LLM_TIERS = ['standard', 'premium', 'max', 'ultra', 'ultra_max'] as const;

export interface PersistentAgentRecord {
  id: string;
  name: string;
  charter: string;
  short_description: string;
  /** The charter changed since short_description was generated: it is regenerated on the next request. */
  descriptionStale: boolean;
  schedule: string | null;
  schedule_snapshot: string | null;
  is_active: boolean;
  life_state: LifeState;
  whitelist_policy: WhitelistPolicy;
  contact_approval_mode: ContactApprovalMode;
  /** The intelligence tier's key (standard by default). */
  preferred_llm_tier: string;
  daily_credit_limit: number | null;
  last_interaction_at: string | null;
  created_at: string;
  updated_at: string;
  browser_use_agent_id: string;
  preferred_contact_endpoint_id: string | null;
  proactive_opt_in: boolean;
  proactive_last_trigger_at: string | null;
  /** Input-only: stored, never returned. */
  template_code: string | null;
  personal_mcp_server_ids: string[];
  /** The pending first check-in (create_default_onboarding_schedule: a day after creation), never returned; absent in older state files. */
  checkin_at?: string | null;
  seq: number;
  /** Timeline, ascending. */
  events: TimelineEvent[];
  /**
   * The agent owns its web address (web://agent/<id>): set by a message through the remote MCP
   * endpoint (message_service.inject_internal_web_message makes the agent the owner of its web
   * endpoint); absent in older state files. See ownsWebAddress.
   */
  webEndpointOwned?: boolean;
  /** The files of the agent's default filespace (the remote MCP file tools); absent until one is written. */
  files?: FileNode[];
}

/** One node of an agent's filespace (api/models.py AgentFsNode): a folder or a file with its content. */
export interface FileNode {
  id: string;
  parent_id: string | null;
  name: string;
  path: string;
  node_type: 'file' | 'dir';
  size_bytes: number | null;
  mime_type: string | null;
  checksum_sha256: string | null;
  /** The content, base64 (files only). */
  content?: string;
  created_at: string;
  updated_at: string;
}

export function persistentListItem(agent: PersistentAgentRecord) {
  return {
    id: agent.id,
    name: agent.name,
    charter: agent.charter,
    schedule: agent.schedule,
    is_active: agent.is_active,
    life_state: agent.life_state,
    // Planning mode is skipped for agents made over the API (the service's provisioning sets it so).
    planning_state: 'skipped',
    planning_plan: '',
    planning_completed_at: null,
    whitelist_policy: agent.whitelist_policy,
    contact_approval_mode: agent.contact_approval_mode,
    last_interaction_at: agent.last_interaction_at,
    created_at: agent.created_at,
    updated_at: agent.updated_at,
    user_id: OWNER_USER_ID,
    organization_id: null,
    browser_use_agent_id: agent.browser_use_agent_id,
    preferred_contact_endpoint_id: agent.preferred_contact_endpoint_id,
    proactive_opt_in: agent.proactive_opt_in,
    proactive_last_trigger_at: agent.proactive_last_trigger_at,
  };
}

export function persistentDetail(agent: PersistentAgentRecord) {
  return {
    ...persistentListItem(agent),
    short_description: agent.short_description,
    schedule_snapshot: agent.schedule_snapshot,
    preferred_llm_tier: agent.preferred_llm_tier,
    daily_credit_limit: agent.daily_credit_limit,
    available_mcp_servers: [],
    personal_mcp_server_ids: [...agent.personal_mcp_server_ids],
  };
}

/**
 * The emulator's "generated" summary of a charter: its first sentence, at most 120 characters.
 * The service fills short_description in later, so the emulator sets it on the request after the
 * one that created the agent or changed its charter.
 */
export function summarizeCharter(charter: string): string {
  const first = charter.trim().split(/(?<=[.!?])\s+|\n+/)[0]?.trim() ?? '';
  if (first === '') return '';
  const chars = [...first];
  const text = chars.length > 120 ? `${chars.slice(0, 119).join('').trimEnd()}…` : first;
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** Brings short_description up to date if the charter changed on an earlier request. */
export function settleDescription(agent: PersistentAgentRecord): void {
  if (!agent.descriptionStale) return;
  agent.short_description = summarizeCharter(agent.charter);
  agent.descriptionStale = false;
}

/** A stable endpoint id for the owner's email or sms endpoint of one agent (`preferred_contact_endpoint`). */
export function ownerEndpointId(agentId: string, kind: 'email' | 'sms'): string {
  const hex = createHash('sha256').update(`${agentId}:${kind}`).digest('hex');
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The agent's web chat address (gobii-platform api/models.py, build_web_agent_address). */
export const webAgentAddress = (agent: PersistentAgentRecord) => `web://agent/${agent.id}`;

/**
 * The agent's own endpoint on a channel, as _resolve_agent_recipient finds it: an e-mail address
 * from creation (ensure_default_agent_email_endpoint); a web one only once the agent has written on
 * the web (message_service._ensure_agent_web_endpoint); none on sms (no number is bought) or the others.
 */
export function agentAddress(agent: PersistentAgentRecord, channel: Channel): string | undefined {
  if (channel === 'email') return `agent-${agent.id.slice(0, 8)}@agents.emulator.example.com`;
  if (channel === 'web' && ownsWebAddress(agent)) return webAgentAddress(agent);
  return undefined;
}

/**
 * The agent that owns `address` on `channel`, if any (message_service.get_agent_id_from_address:
 * the address trimmed and lower-cased, matched case-insensitively).
 */
export function addressOwner(state: { persistentAgents: Map<string, PersistentAgentRecord> }, channel: Channel, address: string): PersistentAgentRecord | undefined {
  const wanted = address.trim().toLowerCase();
  for (const agent of state.persistentAgents.values()) if (agentAddress(agent, channel)?.toLowerCase() === wanted) return agent;
  return undefined;
}

/**
 * Whether the agent owns its web endpoint (web://agent/<id>): once it has written on the web
 * (message_service._ensure_agent_web_endpoint) or once a message reached it through the remote MCP
 * endpoint (inject_internal_web_message: "Ensure agent owns the target endpoint").
 */
export function ownsWebAddress(agent: PersistentAgentRecord): boolean {
  return agent.webEndpointOwned === true || agent.events.some((event) => event.kind === 'message' && isOutboundWeb(event.data.message));
}

function isOutboundWeb(message: unknown): boolean {
  const fields = message as { isOutbound?: unknown; channel?: unknown } | undefined;
  return fields?.isOutbound === true && fields.channel === 'web';
}

/**
 * Whether `sender` may message the agent (api/models.py, PersistentAgent.is_sender_whitelisted).
 * The emulated owner has no organization, collaborators or allowlist entries, so both policies
 * come to the same: on e-mail the owner's address (a display name allowed, any case), on sms the
 * owner's verified number as written, on the web only `web://user/<owner id>/agent/<this agent>`;
 * slack, discord and other channels never.
 */
export function senderAllowed(agent: PersistentAgentRecord, channel: Channel, sender: string): boolean {
  const address = sender.trim();
  if (channel === 'web') {
    // parse_web_user_address: the user id read as an integer, the agent id compared as written.
    const web = /^web:\/\/user\/(-?\d+)\/agent\/([0-9a-fA-F-]+)$/.exec(address);
    return web !== null && Number(web[1]) === Number(OWNER_USER_ID) && web[2] === agent.id;
  }
  if (channel === 'email') return emailOf(address) === USER_EMAIL;
  if (channel === 'sms') return address.toLowerCase() === OWNER_PHONE;
  return false;
}

/** The address of `Name <address>` or a bare address, lower-cased (as Python's parseaddr reads the usual forms). */
function emailOf(text: string): string {
  const bracketed = /<([^<>]*)>\s*$/.exec(text);
  return (bracketed ? (bracketed[1] as string) : text).trim().toLowerCase();
}

/** The 409 body for a paused agent (api/services/agent_lifecycle.py, build_agent_inactive_payload), linking the console on `origin`. */
export function inactivePayload(agent: PersistentAgentRecord, origin: string) {
  return { code: 'agent_inactive', message: 'This agent is paused and can’t receive messages right now.', reactivation_url: `${origin}/app/agents/${agent.id}` };
}
