import type { LegacyAgentBody } from '../../api/legacy-agents.js';
import type { ParseInput } from '../../cli/define.js';
import { withFlags } from '../../cli/fields.js';
import { legacyAgentBody } from '../../core/legacy-agent-body.js';

/** --name as the core's input: the core (src/core/legacy-agent-body.ts) checks it and builds the body. */
export function parseAgentBody(input: ParseInput, mode: 'create' | 'update' | 'replace'): LegacyAgentBody {
  return withFlags({ name: '--name' }, () => legacyAgentBody({ name: input.string('name') }, mode), { input: () => 'give --name NAME' });
}
