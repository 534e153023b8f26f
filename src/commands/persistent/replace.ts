import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { parseAgentBody } from './body.js';
import { AGENT_ID_ARG, ID, agentFieldOptions, rawOptions } from './options.js';
import { showAgent } from './show.js';

const options = agentFieldOptions('name, at most 255 characters (required)');

export const command = defineCommand({
  name: 'replace',
  summary: 'replace an agent (PUT): --name is required; only the fields given are sent',
  args: [AGENT_ID_ARG],
  options,
  examples: [`agentctl persistent replace ${ID} --name scout --charter-file charter.md --schedule @hourly`],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id'), raw: rawOptions(input, options) }),
  async run({ id, raw }, ctx) {
    const body = await parseAgentBody(raw, 'replace', ctx.io.stdin);
    showAgent(ctx, await persistentAgents.replace(await ctx.client(), id, body));
  },
});
