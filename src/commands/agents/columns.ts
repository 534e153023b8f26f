import type { LegacyAgent } from '../../api/schemas/legacy-agent.js';
import type { ArgumentSpec } from '../../cli/define.js';
import type { DetailRow } from '../../output/output.js';
import type { Column } from '../../output/table.js';

export const agentColumns: Column<LegacyAgent>[] = [
  { key: 'id' },
  { key: 'name', maxWidth: 40 },
  { key: 'created_at', header: 'created' },
  { key: 'mini_description', header: 'description' },
];

export function agentDetail(agent: LegacyAgent): DetailRow[] {
  return [
    { label: 'id', value: agent.id },
    { label: 'name', value: agent.name },
    { label: 'user_email', value: agent.user_email },
    { label: 'created_at', value: agent.created_at },
    { label: 'updated_at', value: agent.updated_at },
    { label: 'mini_description', value: agent.mini_description },
    { label: 'listing_description', value: agent.listing_description },
  ];
}

export const AGENT_ID_ARG: ArgumentSpec = { name: '<id>', description: 'agent id (UUID)' };
export const EXAMPLE_AGENT_ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
