import { agentTools } from '../../api/agent-tools.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { unlinkArguments } from '../../core/agent-links.js';
import { UsageError } from '../../errors.js';
import { ID } from './options.js';
import { PEER, inFlagWords } from './tool-flags.js';
import { linkRows } from './tool-views.js';

export const command = defineCommand({
  name: 'unlink',
  summary: 'remove the peer link between two agents (their past messages stay)',
  args: [
    { name: '[id]', description: 'one agent (UUID)' },
    { name: '[peer]', description: 'the other agent (UUID)' },
  ],
  options: [{ flags: '--link <id>', description: 'the link to remove, by its id (instead of the two agents)' }],
  notes: "Sent once, never repeated after a failure: list the links to see whether it went. Through the service's MCP endpoint (gobii-platform 2.20.0 or later).",
  exitCodes: { ...SERVICE_EXITS, 4: 'no such agent, or no link between them' },
  examples: [`agentctl persistent unlink ${ID} ${PEER}   # exit 4 when the two are not linked`, `agentctl persistent unlink --link $(agentctl persistent link ${ID} ${PEER} --jq .link.id)`],
  parse(input) {
    const [agent, peer, link] = [input.arg(0), input.arg(1), input.string('link')];
    if (link === undefined && agent === undefined) throw new UsageError('name the link: the two agents, or --link ID', `e.g. agentctl persistent unlink ${ID} ${PEER}`);
    const words = { agent_id: 'agent id', peer_agent_id: 'peer', peer_link_id: '--link' };
    return { args: inFlagWords(words, () => unlinkArguments({ peer_link_id: link, agent_id: agent, peer_agent_id: peer })) };
  },
  async run({ args }, ctx) {
    const answer = await agentTools.unlink(await ctx.client(), args);
    if (!ctx.out.machine) ctx.out.success('Removed the link.');
    ctx.out.record(answer, linkRows(answer.link));
  },
});
