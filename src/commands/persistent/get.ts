import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { showAgent } from './show.js';

export const command = defineCommand({
  name: 'get',
  summary: 'show an agent: identity, schedule with its next runs, state and contact policy',
  args: [AGENT_ID_ARG],
  examples: [`agentctl persistent get ${ID}`, `agentctl persistent get ${ID} --json | jq .schedule`],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id') }),
  async run({ id }, ctx) {
    showAgent(ctx, await persistentAgents.get(await ctx.client(), id));
  },
});
