import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { LIMITS, checkUuid } from '../../contract/validate.js';
import { parseAgentBody } from './body.js';
import { AGENT_ID_ARG, EXAMPLE_AGENT_ID, agentDetail } from './columns.js';

export const command = defineCommand({
  name: 'replace',
  summary: 'replace an agent (PUT): every writable field is set',
  args: [AGENT_ID_ARG],
  options: [{ flags: '--name <name>', description: `name (at most ${LIMITS.legacyAgentName} characters)`, required: true }],
  examples: [`agentctl agents replace ${EXAMPLE_AGENT_ID} --name travel`],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id'), body: parseAgentBody(input, 'replace') }),
  async run({ id, body }, ctx) {
    const agent = await legacyAgents.replace(await ctx.client(), id, body);
    ctx.out.record(agent, agentDetail(agent));
  },
});
