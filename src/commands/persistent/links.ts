import { agentTools } from '../../api/agent-tools.js';
import { defineCommand } from '../../cli/define.js';
import { listLinksArguments } from '../../core/agent-links.js';
import { ID } from './options.js';
import { inFlagWords } from './tool-flags.js';
import { LINK_COLUMNS } from './tool-views.js';

export const command = defineCommand({
  name: 'links',
  summary: 'the peer links between agents (agents that may message each other), newest first',
  args: [{ name: '[id]', description: 'only the links of this agent (UUID); without, those of every agent the key reaches' }],
  notes: "Through the service's MCP endpoint (gobii-platform 2.20.0 or later). Link two agents with `persistent link`, remove a link with `persistent unlink`.",
  examples: ['agentctl persistent links', `agentctl persistent links ${ID} --json | jq -r '.[].id'`],
  parse: (input) => ({ args: inFlagWords({ agent_id: 'agent id' }, () => listLinksArguments(input.arg(0))) }),
  async run({ args }, ctx) {
    ctx.out.list(await agentTools.links(await ctx.client(), args, { signal: ctx.signal }), LINK_COLUMNS);
  },
});
