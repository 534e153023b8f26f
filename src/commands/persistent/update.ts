import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { parseAgentBody, warnScheduleCrash } from './body.js';
import { AGENT_ID_ARG, ID, agentFieldOptions } from './options.js';
import { showAgent } from './show.js';

const options = agentFieldOptions('new name, at most 255 characters');

export const command = defineCommand({
  name: 'update',
  summary: 'change some fields of an agent (PATCH)',
  args: [AGENT_ID_ARG],
  options,
  examples: [`agentctl persistent update ${ID} --schedule "@every 2h"`, `agentctl persistent update ${ID} --no-schedule --paused`],
  parse: async (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id'), body: await parseAgentBody(input, 'update') }),
  async run({ id, body }, ctx) {
    warnScheduleCrash(ctx, body);
    showAgent(ctx, await persistentAgents.update(await ctx.client(), id, body));
  },
});
