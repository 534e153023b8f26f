import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { LIMITS, checkName, checkUuid } from '../../contract/validate.js';
import { AGENT_ID_ARG, EXAMPLE_AGENT_ID, agentDetail } from './columns.js';

export const command = defineCommand({
  name: 'replace',
  summary: 'replace an agent (PUT): every writable field is set',
  args: [AGENT_ID_ARG],
  options: [{ flags: '--name <name>', description: `name (at most ${LIMITS.legacyAgentName} characters)`, required: true }],
  examples: [`agentctl agents replace ${EXAMPLE_AGENT_ID} --name travel`],
  parse: (input) => ({
    id: checkUuid(input.arg(0) ?? '', 'agent id'),
    name: checkName(input.string('name') ?? '', LIMITS.legacyAgentName, '--name'),
  }),
  async run({ id, name }, ctx) {
    const agent = await legacyAgents.replace(await ctx.client(), id, { name });
    ctx.out.record(agent, agentDetail(agent));
  },
});
