import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { parseAgentBody, warnScheduleCrash } from './body.js';
import { agentFieldOptions } from './options.js';
import { showAgent } from './show.js';

const options = agentFieldOptions('agent name, at most 255 characters (the service picks one if omitted)');

export const command = defineCommand({
  name: 'create',
  summary: 'create a persistent agent',
  options,
  examples: [
    'agentctl persistent create --name "Price watcher" --charter "Track the price of the Oslo-Rome flight" --schedule @daily',
    'agentctl persistent create --name digest --charter-file charter.md --schedule "0 7 * * mon-fri" --whitelist-policy manual',
    'id=$(agentctl persistent create --name scout --json | jq -r .id)',
  ],
  parse: (input) => parseAgentBody(input, 'create'),
  async run(body, ctx) {
    warnScheduleCrash(ctx, body);
    showAgent(ctx, await persistentAgents.create(await ctx.client(), body));
  },
});
