import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { AGENT_ID_ARG, EXAMPLE_AGENT_ID, agentDetail } from './columns.js';

export const command = defineCommand({
  name: 'get',
  summary: 'show one agent',
  args: [AGENT_ID_ARG],
  examples: [`agentctl agents get ${EXAMPLE_AGENT_ID}`],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id') }),
  async run({ id }, ctx) {
    const agent = await legacyAgents.get(await ctx.client(), id);
    ctx.out.record(agent, agentDetail(agent));
  },
});
