import { agentTools } from '../../api/agent-tools.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { FILE_COLUMNS } from './tool-views.js';

export const command = defineCommand({
  name: 'files',
  summary: "the files and folders of the agent's filespace",
  args: [AGENT_ID_ARG],
  notes: "Add one with `persistent upload`, read one with `persistent download`. Through the service's MCP endpoint (gobii-platform 2.20.0 or later).",
  examples: [`agentctl persistent files ${ID}`, `agentctl persistent files ${ID} --json | jq -r '.nodes[] | select(.node_type == "file") | .path'`],
  parse: (input) => ({ agentId: checkUuid(input.arg(0) ?? '', 'agent id') }),
  async run({ agentId }, ctx) {
    const listing = await agentTools.files(await ctx.client(), agentId, { signal: ctx.signal });
    if (ctx.out.machine) return ctx.out.json(listing);
    ctx.out.list(listing.nodes, FILE_COLUMNS);
  },
});
