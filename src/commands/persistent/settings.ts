import { agentTools } from '../../api/agent-tools.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import type { DetailRow } from '../../output/output.js';
import { ID } from './options.js';

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const array = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);

/** `standard (default), premium, max (not allowed)`: the tiers, each said once. */
function tiers(field: Json): string {
  return array(field.options)
    .map((tier) => `${String(tier.key)}${tier.is_default ? ' (default)' : ''}${tier.allowed === false ? ' (not allowed)' : ''}`)
    .join(', ');
}

function rows(answer: Json): DetailRow[] {
  const owner = object(answer.owner);
  const agent = answer.agent === null ? undefined : object(answer.agent);
  const fields = object(answer.fields);
  const [tier, credit, schedule, policy] = [fields.preferred_llm_tier, fields.daily_credit_limit, fields.schedule, fields.whitelist_policy].map(object) as [Json, Json, Json, Json];
  const range = credit.recommended_min === undefined ? undefined : `${String(credit.recommended_min)}..${String(credit.recommended_max)} (step ${String(credit.step)})`;
  const all: DetailRow[] = [
    { section: 'Owner', label: 'owner', value: `${String(owner.type)} ${String(owner.id)}${owner.name ? ` (${String(owner.name)})` : ''}` },
    { section: 'Owner', label: 'agent', value: agent ? `${String(agent.id)} (${String(agent.name)})` : undefined },
    { section: 'Owner', label: 'agent_tier', value: agent?.preferred_llm_tier },
    { section: 'Owner', label: 'agent_daily_credit_limit', value: agent ? (agent.daily_credit_limit ?? 'unlimited') : undefined },
    { section: 'Intelligence tier', label: 'tiers', value: tiers(tier) },
    { section: 'Intelligence tier', label: 'system_default', value: tier.current_system_default },
    { section: 'Intelligence tier', label: 'max_allowed', value: tier.max_allowed_tier },
    { section: 'Daily credits', label: 'recommended', value: range },
    { section: 'Daily credits', label: 'hard_limit_multiplier', value: credit.hard_limit_multiplier },
    { section: 'Daily credits', label: 'null_means', value: credit.null_behavior },
    { section: 'Other fields', label: 'schedule', value: Array.isArray(schedule.accepted_formats) ? schedule.accepted_formats.join('; ') : undefined },
    { section: 'Other fields', label: 'whitelist_policy', value: array(policy.options).map((option) => String(option.value)).join(', ') || undefined },
    { section: 'Other fields', label: 'not_offered', value: Array.isArray(answer.unsupported_remote_mcp_v1_fields) ? answer.unsupported_remote_mcp_v1_fields.join(', ') : undefined },
  ];
  return all.filter((row) => row.value !== undefined && row.value !== '');
}

export const command = defineCommand({
  name: 'settings',
  summary: "the settings the key may give an agent (the service's config options): intelligence tiers, daily credit limits, schedules, policies",
  args: [{ name: '[id]', description: "also this agent's current settings (UUID)" }],
  notes: "The service's own answer for this key's plan (an agent's owner, with an id). Through the service's MCP endpoint (gobii-platform 2.20.0 or later).",
  examples: ['agentctl persistent settings', `agentctl persistent settings ${ID} --json | jq -r '.fields.preferred_llm_tier.options[] | select(.allowed) | .key'`],
  parse: (input) => {
    const id = input.arg(0);
    return { args: id === undefined ? {} : { agent_id: checkUuid(id, 'agent id') } };
  },
  async run({ args }, ctx) {
    const answer = await agentTools.configOptions(await ctx.client(), args, { signal: ctx.signal });
    ctx.out.record(answer, rows(answer));
  },
});
