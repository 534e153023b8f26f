import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { LIMITS, checkName, checkUuid } from '../../contract/validate.js';
import { UsageError } from '../../errors.js';
import { AGENT_ID_ARG, EXAMPLE_AGENT_ID, agentDetail } from './columns.js';

export const command = defineCommand({
  name: 'update',
  summary: 'change some fields of an agent (PATCH)',
  args: [AGENT_ID_ARG],
  options: [{ flags: '--name <name>', description: `new name (at most ${LIMITS.legacyAgentName} characters)` }],
  examples: [`agentctl agents update ${EXAMPLE_AGENT_ID} --name travel`],
  parse(input) {
    const id = checkUuid(input.arg(0) ?? '', 'agent id');
    const name = input.string('name');
    if (name === undefined) throw new UsageError('nothing to update', 'give --name NAME');
    return { id, name: checkName(name, LIMITS.legacyAgentName, '--name') };
  },
  async run({ id, name }, ctx) {
    const agent = await legacyAgents.update(await ctx.client(), id, { name });
    ctx.out.record(agent, agentDetail(agent));
  },
});
