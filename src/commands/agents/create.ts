import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { LIMITS } from '../../contract/validate.js';
import { parseAgentBody } from './body.js';
import { agentDetail } from './columns.js';

export const command = defineCommand({
  name: 'create',
  summary: 'create a browser-use agent',
  options: [{ flags: '--name <name>', description: `agent name (at most ${LIMITS.legacyAgentName} characters)`, required: true }],
  examples: ['agentctl agents create --name shopping', 'id=$(agentctl agents create --name shopping --json | jq -r .id)'],
  parse: (input) => parseAgentBody(input, 'create'),
  async run(body, ctx) {
    const agent = await legacyAgents.create(await ctx.client(), body);
    ctx.out.record(agent, agentDetail(agent));
  },
});
