import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { showAgent } from './show.js';
import { openInBrowser } from '../common/web.js';

export const command = defineCommand({
  name: 'get',
  summary: 'show an agent: identity, schedule with its next runs, state and contact policy',
  args: [AGENT_ID_ARG],
  examples: [`agentctl persistent get ${ID}`, `agentctl persistent get ${ID} --web`, `agentctl persistent get ${ID} --json | jq .schedule`],
  options: [{ flags: '-w, --web', description: "open the agent in the service's web app (prints the URL when piped)" }],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id'), web: input.flag('web') }),
  async run({ id, web }, ctx) {
    if (web) return openInBrowser(ctx, `/app/agents/${id}`);
    showAgent(ctx, await persistentAgents.get(await ctx.client(), id));
  },
});
