import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { parseAgentBody, warnScheduleCrash } from './body.js';
import { AGENT_ID_ARG, ID, agentFieldOptions } from './options.js';
import { showAgent } from './show.js';

const options = agentFieldOptions('name, at most 255 characters (required)');

export const command = defineCommand({
  name: 'replace',
  summary: 'replace an agent (PUT): --name is required; only the fields given are sent',
  args: [AGENT_ID_ARG],
  options,
  examples: [`agentctl persistent replace ${ID} --name scout --charter-file charter.md --schedule @hourly`],
  parse: async (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id'), body: await parseAgentBody(input, 'replace') }),
  async run({ id, body }, ctx) {
    warnScheduleCrash(ctx, body);
    showAgent(ctx, await persistentAgents.replace(await ctx.client(), id, body));
  },
});
