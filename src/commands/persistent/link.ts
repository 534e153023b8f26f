import { agentTools } from '../../api/agent-tools.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_LIMITS } from '../../contract/limits.js';
import { linkArguments } from '../../core/agent-links.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { PEER, PEER_ARG, inFlagWords, wholeNumber } from './tool-flags.js';
import { linkRows } from './tool-views.js';

export const command = defineCommand({
  name: 'link',
  summary: 'let two agents message each other (creates the peer link, or enables it again)',
  args: [AGENT_ID_ARG, PEER_ARG],
  options: [
    { flags: '--messages-per-window <n>', description: `how many messages the pair may send per window, 1..${SERVICE_LIMITS.linkMessagesPerWindow} (service default 30)` },
    { flags: '--window-hours <h>', description: `the window's length in hours, 1..${SERVICE_LIMITS.linkWindowHours} (service default 6)` },
  ],
  notes:
    'A link already there is enabled again with the budget given (the defaults when none is): the call is sent once, never repeated after a failure. ' +
    "Through the service's MCP endpoint (gobii-platform 2.20.0 or later).",
  examples: [`agentctl persistent link ${ID} ${PEER}`, `agentctl persistent link ${ID} ${PEER} --messages-per-window 10 --window-hours 24 --json | jq -r .link.id`],
  parse(input) {
    const words = { agent_id: 'agent id', peer_agent_id: 'peer', messages_per_window: '--messages-per-window', window_hours: '--window-hours' };
    const budget = { messages_per_window: wholeNumber(input.string('messagesPerWindow'), '--messages-per-window'), window_hours: wholeNumber(input.string('windowHours'), '--window-hours') };
    return { args: inFlagWords(words, () => linkArguments(input.arg(0) ?? '', input.arg(1) ?? '', budget)) };
  },
  async run({ args }, ctx) {
    const answer = await agentTools.link(await ctx.client(), args);
    if (!ctx.out.machine) ctx.out.success(answer.created ? 'Linked the two agents (a new link).' : 'The two agents were linked already: the link is enabled, with this budget.');
    ctx.out.record(answer, linkRows(answer.link));
  },
});
