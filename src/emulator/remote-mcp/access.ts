import { OWNER_USER_ID, settleDescription, type PersistentAgentRecord } from '../persistent-state.js';
import type { State } from '../state.js';
import { isoformat, parseUuid, ToolError, type Args } from './args.js';

// Who a tool acts for and which agents it reaches (remote_mcp.py _resolve_mcp_scope,
// _get_agent_access, _serialize_agent). The emulated key belongs to an ordinary user (not staff):
// user_id and organization_id are refused, and only the user's own alive agents are reached.

/** _resolve_mcp_scope for a non-staff key: a supplied user_id or organization_id (not null, not "") is refused. */
export function checkScope(args: Args): void {
  const supplied = (['user_id', 'organization_id'] as const).filter((key) => key in args && args[key] !== null && args[key] !== '');
  if (supplied.length > 0) {
    throw new ToolError('user_id and organization_id are restricted to staff/superuser API keys.', { code: 'admin_scope_required', fields: supplied });
  }
}

/** _get_agent_access: the id read as a UUID, then the scope, then the agent among the user's alive ones. */
export function agentAccess(state: State, rawId: unknown, args: Args): PersistentAgentRecord {
  const id = parseUuid(rawId, 'agent_id');
  checkScope(args);
  const agent = state.persistentAgents.get(id);
  if (!agent) throw new ToolError('Agent not found or inaccessible.', { code: 'agent_not_found_or_inaccessible', field: 'agent_id' });
  settleDescription(agent);
  return agent;
}

/** The owner's hard stop: soft target x the default hard_limit_multiplier (2), two places (get_daily_credit_hard_limit). */
const HARD_LIMIT_MULTIPLIER = 2;

/** _serialize_agent: Python isoformat times (+00:00), Decimal credit figures as text (_json_safe). */
export function serializeAgent(agent: PersistentAgentRecord): Record<string, unknown> {
  const soft = agent.daily_credit_limit === null || agent.daily_credit_limit === 0 ? null : agent.daily_credit_limit;
  return {
    id: agent.id,
    name: agent.name,
    charter: agent.charter,
    short_description: agent.short_description,
    schedule: agent.schedule,
    is_active: agent.is_active,
    life_state: agent.life_state,
    planning_state: 'skipped',
    whitelist_policy: agent.whitelist_policy,
    contact_approval_mode: agent.contact_approval_mode,
    created_at: isoformat(agent.created_at),
    updated_at: isoformat(agent.updated_at),
    last_interaction_at: isoformat(agent.last_interaction_at),
    user_id: OWNER_USER_ID,
    organization_id: null,
    browser_use_agent_id: agent.browser_use_agent_id,
    preferred_contact_endpoint_id: agent.preferred_contact_endpoint_id,
    preferred_llm_tier: agent.preferred_llm_tier,
    daily_credit_limit: agent.daily_credit_limit,
    daily_credit_soft_target: soft === null ? null : String(soft),
    daily_credit_hard_limit: soft === null ? null : (soft * HARD_LIMIT_MULTIPLIER).toFixed(2),
    proactive_opt_in: agent.proactive_opt_in,
    proactive_last_trigger_at: isoformat(agent.proactive_last_trigger_at),
  };
}

/** _serialize_agent_ref. */
export const agentRef = (agent: PersistentAgentRecord) => ({ id: agent.id, name: agent.name, is_active: agent.is_active, life_state: agent.life_state });
