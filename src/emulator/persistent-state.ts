import { MESSAGE_CHANNELS } from '../contract/enums.js';
import { createHash } from 'node:crypto';
import { USER_EMAIL } from './state.js';
import type { TimelineEvent } from './timeline.js';

// Persistent agents as the emulator stores them, their API shapes, and the emulator's messaging
// conventions (which channels the agent can receive on, who is on the allowlist).

/** The owner's id as the reference deployment sends it: a numeric string. */
export const OWNER_USER_ID = '42';
/** The owner's phone number: on every agent's allowlist, with the owner's email. */
export const OWNER_PHONE = '+15555550100';

export const CHANNELS = MESSAGE_CHANNELS;
export type Channel = (typeof MESSAGE_CHANNELS)[number];

/** Channels on which every emulated agent has an endpoint; the others need an explicit recipient. */
export const ENDPOINT_CHANNELS: readonly Channel[] = ['email', 'web'];

export type LifeState = 'active' | 'expired';
export type WhitelistPolicy = 'default' | 'manual';
export const CONTACT_APPROVAL_MODES = ['require_approval', 'auto_approve_email'] as const;
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
  seq: number;
  /** Timeline, ascending. */
  events: TimelineEvent[];
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

/** The agent's own address on a channel, when it has an endpoint there. */
export function agentAddress(agent: PersistentAgentRecord, channel: Channel): string | undefined {
  if (channel === 'email') return `agent-${agent.id.slice(0, 8)}@agents.emulator.example.com`;
  if (channel === 'web') return `web:${agent.id}`;
  return undefined;
}

/**
 * Whether `sender` may message the agent. Policy `default`: anyone (the emulator has no organization
 * directory, so every sender counts as a member). Policy `manual`: only the allowlist, which holds the
 * owner's email (emulator@example.com) and phone (+15555550100); web-channel senders are always
 * allowed, since the web chat is only reachable by the signed-in owner.
 */
export function senderAllowed(agent: PersistentAgentRecord, channel: Channel, sender: string): boolean {
  if (agent.whitelist_policy === 'default' || channel === 'web') return true;
  const text = sender.trim().toLowerCase();
  return text === USER_EMAIL || text.replace(/[\s().-]/g, '') === OWNER_PHONE;
}
