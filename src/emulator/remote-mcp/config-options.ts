import { LLM_TIERS, type PersistentAgentRecord } from '../persistent-state.js';
import { serializeAgent } from './access.js';

// gobii_get_agent_config_options (remote_mcp.py _tool_get_agent_config_options,
// _build_intelligence_options, _build_daily_credit_options) for the emulated owner: every tier
// allowed, the default daily-credit settings (api/services/daily_credit_settings.py), Decimals as text.

/** The intelligence tiers as migration 0257 seeds them (key, display name, rank, credit multiplier), with llm_config.py's labels and descriptions. */
const TIERS: Record<(typeof LLM_TIERS)[number], { label: string; description: string; rank: number; multiplier: string }> = {
  standard: { label: 'Lite', description: 'Best for simple tasks and quick questions.', rank: 0, multiplier: '1.00' },
  premium: { label: 'Standard', description: 'Handles everyday workflows and multi-step tasks.', rank: 1, multiplier: '2.00' },
  max: { label: 'Max', description: 'Great for complex tasks that need deeper reasoning.', rank: 2, multiplier: '5.00' },
  ultra: { label: 'Ultra', description: 'Built for advanced, high-complexity tasks.', rank: 3, multiplier: '20.00' },
  ultra_max: { label: 'Ultra Max', description: 'Best for the most complex and long-running tasks.', rank: 4, multiplier: '50.00' },
};

/** DEFAULT_SLIDER_MAX (50) times the tier's multiplier, rounded half up (calculate_daily_credit_slider_bounds). */
const recommendedMax = (multiplier: string) => String(Math.round(50 * Number(multiplier)));

export function configOptions(agent: PersistentAgentRecord | null): Record<string, unknown> {
  const multiplier = agent ? TIERS[agent.preferred_llm_tier as keyof typeof TIERS]?.multiplier ?? '1.00' : '1';
  return {
    owner: { type: 'user', id: 42 },
    agent: agent ? serializeAgent(agent) : null,
    fields: {
      preferred_llm_tier: {
        type: 'string',
        current_system_default: 'standard',
        max_allowed_tier: 'ultra_max',
        max_allowed_rank: 4,
        options: LLM_TIERS.map((key) => {
          const tier = TIERS[key];
          return { key, label: tier.label, description: tier.description, rank: tier.rank, credit_multiplier: tier.multiplier, is_default: key === 'standard', allowed: true };
        }),
      },
      daily_credit_limit: {
        type: 'integer_or_null',
        null_behavior: 'unlimited',
        soft_target_description: 'Preferred daily credit target before agents are asked to slow down.',
        hard_limit_description: 'Gobii enforces a hard stop at soft target multiplied by hard_limit_multiplier.',
        hard_limit_multiplier: '2',
        default_daily_credit_target: 5,
        recommended_min: '1',
        recommended_max: recommendedMax(multiplier),
        step: '1',
        tier_credit_multiplier: multiplier,
        enforced_by_agent_runtime: true,
      },
      schedule: {
        type: 'string_or_null',
        required: false,
        null_behavior: 'unscheduled',
        accepted_formats: ["cron-like schedule expressions accepted by Gobii's ScheduleParser", '@daily', '@every interval'],
      },
      whitelist_policy: {
        type: 'string',
        options: [
          { value: 'default', label: 'Default (Owner or Org Members)' },
          { value: 'manual', label: 'Allowed Contacts List' },
        ],
      },
      is_active: { type: 'boolean' },
      proactive_opt_in: { type: 'boolean', mutable_on_update: true },
    },
    unsupported_remote_mcp_v1_fields: ['arbitrary_url_file_fetch', 'ad_hoc_runtime_session', 'separate_task_or_run_abstraction'],
  };
}
