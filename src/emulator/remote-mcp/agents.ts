import { HttpError } from '../http.js';
import { LLM_TIERS, type PersistentAgentRecord } from '../persistent-state.js';
import { settleDescription } from '../persistent-state.js';
import { callRoute, type McpServices } from './context.js';
import { agentAccess, checkScope, serializeAgent } from './access.js';
import { boundedInt, ToolError, truthy, type Args } from './args.js';
import { configOptions } from './config-options.js';
import type { ToolHandler } from './tool-result.js';

// The agent tools (remote_mcp.py _tool_list_agents ... _tool_archive_agent): they go through the
// emulator's REST routes, as the service's go through PersistentAgentSerializer, so an agent made
// or changed here is the REST side's agent, with the REST side's checks.

const CREATE_FIELDS = ['name', 'charter', 'schedule', 'is_active', 'preferred_llm_tier', 'daily_credit_limit', 'whitelist_policy', 'contact_approval_mode'];
const UPDATE_FIELDS = [...CREATE_FIELDS, 'proactive_opt_in'];

export const AGENT_TOOLS: Record<string, ToolHandler> = {
  gobii_list_agents: ({ state }, args) => {
    const pageSize = boundedInt(args.page_size ?? 20, 'page_size', 1, 100);
    const page = boundedInt(args.page ?? 1, 'page', 1, 100000);
    checkScope(args);
    // Newest first (_agent_base_queryset orders by -created_at).
    const total = state.persistentList.size;
    const offset = (page - 1) * pageSize;
    const agents = state.persistentList.slice(offset, pageSize);
    for (const agent of agents) settleDescription(agent);
    return { agents: agents.map(serializeAgent), page, page_size: pageSize, total, has_next: offset + pageSize < total };
  },
  gobii_get_agent: ({ state }, args) => ({ agent: serializeAgent(agentAccess(state, args.agent_id, args)) }),
  gobii_create_agent: async (services, args, url) => {
    checkScope(args);
    const payload = pick(args, CREATE_FIELDS);
    normalizeConfig(payload);
    const answer = await viaRoute(() => callRoute(services, 'POST', '/agents/', payload, url), 'Agent creation failed.');
    return { agent: serializeAgent(recordOf(services, answer.body)) };
  },
  gobii_update_agent: async (services, args, url) => {
    const agent = agentAccess(services.state, args.agent_id, args);
    const payload = pick(args, UPDATE_FIELDS);
    if (Object.keys(payload).length === 0) throw new ToolError('At least one mutable field is required.');
    normalizeConfig(payload);
    await viaRoute(() => callRoute(services, 'PATCH', `/agents/${agent.id}/`, payload, url), 'Agent update failed.');
    return { agent: serializeAgent(agent) };
  },
  gobii_archive_agent: async (services, args, url) => {
    const agent = agentAccess(services.state, args.agent_id, args);
    await callRoute(services, 'DELETE', `/agents/${agent.id}/`, undefined, url);
    // PersistentAgent.soft_delete: paused, expired and unscheduled, then gone from every list; an
    // alive agent always changes (is_deleted flips), and an archived one is no longer found.
    const changed = true;
    agent.is_active = false;
    agent.life_state = 'expired';
    agent.schedule = null;
    return { status: 'archived', changed, agent: serializeAgent(agent) };
  },
  gobii_get_agent_config_options: ({ state }, args) => {
    checkScope(args);
    const agent = truthy(args.agent_id) ? agentAccess(state, args.agent_id, args) : null;
    return configOptions(agent);
  },
};

const pick = (args: Args, fields: string[]) => Object.fromEntries(fields.filter((key) => key in args).map((key) => [key, args[key]]));

/** A REST route's 400 is the tool's error, its body the details (_format_validation_error of the serializer's errors). */
async function viaRoute<T>(run: () => Promise<T>, message: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) throw new ToolError(message, error.body);
    throw error;
  }
}

function recordOf({ state }: McpServices, body: unknown): PersistentAgentRecord {
  const agent = state.persistentAgents.get((body as { id: string }).id);
  if (!agent) throw new Error('the agent the route made is missing');
  return agent;
}

/** _normalize_agent_config_payload: "" schedule is none; the tier a known key (lower-cased); the credit limit a positive integer or null. */
function normalizeConfig(payload: Args): void {
  if (payload.schedule === '') payload.schedule = null;
  if ('preferred_llm_tier' in payload) {
    const tier = payload.preferred_llm_tier;
    if (typeof tier !== 'string' || tier.trim() === '') throw new ToolError('preferred_llm_tier must be a supported intelligence tier key.', { field: 'preferred_llm_tier' });
    const requested = tier.trim().toLowerCase();
    if (!(LLM_TIERS as readonly string[]).includes(requested)) throw new ToolError('preferred_llm_tier is not a known intelligence tier key.', { field: 'preferred_llm_tier', requested });
    payload.preferred_llm_tier = requested;
  }
  if ('daily_credit_limit' in payload) payload.daily_credit_limit = creditLimit(payload.daily_credit_limit);
}

/** _normalize_daily_credit_limit. */
function creditLimit(value: unknown): number | null {
  if (value === null) return null;
  const bad = () => new ToolError('daily_credit_limit must be a positive integer or null.', { field: 'daily_credit_limit' });
  let limit: number;
  if (typeof value === 'number' && Number.isInteger(value)) limit = value;
  else if (typeof value === 'string' && /^\d+$/.test(value.trim())) limit = Number(value.trim());
  else throw bad();
  if (limit < 1) throw bad();
  return limit;
}
