import type { ChalkInstance } from 'chalk';
import type { PersistentAgent, PersistentAgentListItem } from '../../api/schemas/persistent-agent.js';
import type { DetailRow } from '../../output/output.js';
import type { Column } from '../../output/table.js';

/** One word for the agent's state: paused (is_active false), expired, or active. */
export function agentState(agent: Pick<PersistentAgentListItem, 'is_active' | 'life_state'>): string {
  if (!agent.is_active) return 'paused';
  return agent.life_state === 'expired' ? 'expired' : 'active';
}

function paintState(chalk: ChalkInstance, text: string): string {
  return text === 'active' ? chalk.green(text) : text === 'paused' ? chalk.yellow(text) : chalk.red(text);
}

export function agentColumns(chalk: ChalkInstance): Column<PersistentAgentListItem>[] {
  return [
    { key: 'id' },
    { key: 'name', maxWidth: 32 },
    { key: 'state', value: agentState, paint: (text) => paintState(chalk, text) },
    { key: 'schedule', maxWidth: 24 },
    { key: 'whitelist_policy', header: 'policy' },
    { key: 'last_interaction_at', header: 'last interaction' },
  ];
}

/** What the detail view shows about the schedule; computed by the caller (it needs the grammar). */
export interface ScheduleSummary {
  description?: string;
  next: string[];
  /** Said instead of the next runs when they cannot be known locally. */
  note?: string;
  problem?: string;
}

/** The detail view, grouped: identity, schedule, state, contact policy, charter. */
export function agentDetail(agent: PersistentAgent, schedule: ScheduleSummary | undefined, chalk: ChalkInstance): DetailRow[] {
  const rows: DetailRow[] = [
    { section: 'Identity', label: 'id', value: agent.id },
    { section: 'Identity', label: 'name', value: agent.name },
    { section: 'Identity', label: 'short_description', value: agent.short_description },
    { section: 'Identity', label: 'browser_use_agent_id', value: agent.browser_use_agent_id },
    { section: 'Identity', label: 'organization_id', value: agent.organization_id },
    { section: 'Identity', label: 'created_at', value: agent.created_at },
    { section: 'Identity', label: 'updated_at', value: agent.updated_at },
    { section: 'Schedule', label: 'schedule', value: agent.schedule ?? 'none (acts only when messaged)' },
    { section: 'Schedule', label: 'description', value: schedule?.description },
    { section: 'Schedule', label: 'next_runs', value: nextRuns(schedule) },
    { section: 'Schedule', label: 'schedule_problem', value: schedule?.problem },
    { section: 'Schedule', label: 'schedule_snapshot', value: agent.schedule_snapshot },
    { section: 'State', label: 'state', value: agentState(agent), paint: (text) => paintState(chalk, text) },
    { section: 'State', label: 'is_active', value: agent.is_active },
    { section: 'State', label: 'life_state', value: agent.life_state },
    { section: 'State', label: 'last_interaction_at', value: agent.last_interaction_at },
    { section: 'Contact policy', label: 'whitelist_policy', value: agent.whitelist_policy },
    { section: 'Contact policy', label: 'preferred_contact_endpoint_id', value: agent.preferred_contact_endpoint_id },
    { section: 'Contact policy', label: 'proactive_opt_in', value: agent.proactive_opt_in },
    { section: 'Contact policy', label: 'proactive_last_trigger_at', value: agent.proactive_last_trigger_at },
    { section: 'Contact policy', label: 'personal_mcp_server_ids', value: agent.personal_mcp_server_ids?.length ? agent.personal_mcp_server_ids.join(', ') : undefined },
    { section: 'Charter', label: 'charter', value: agent.charter, block: true },
  ];
  return rows.filter((row) => row.value !== undefined && row.value !== null && row.value !== '');
}

function nextRuns(schedule: ScheduleSummary | undefined): string | undefined {
  if (!schedule || schedule.problem) return undefined;
  if (schedule.next.length > 0) return schedule.next.join(', ');
  return schedule.note ?? 'never';
}
