import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { LIMITS, checkName } from '../../contract/validate.js';
import { agentDetail } from './columns.js';

export const command = defineCommand({
  name: 'create',
  summary: 'create a browser-use agent',
  options: [{ flags: '--name <name>', description: `agent name (at most ${LIMITS.legacyAgentName} characters)`, required: true }],
  examples: ['agentctl agents create --name shopping', 'id=$(agentctl agents create --name shopping --json | jq -r .id)'],
  parse: (input) => ({ name: checkName(input.string('name') ?? '', LIMITS.legacyAgentName, '--name') }),
  async run({ name }, ctx) {
    const agent = await legacyAgents.create(await ctx.client(), { name });
    ctx.out.record(agent, agentDetail(agent));
  },
});
