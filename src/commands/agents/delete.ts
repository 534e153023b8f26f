import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { DELETE_NOTES, YES_OPTION, confirmAndDelete } from '../common/confirm-delete.js';
import { AGENT_ID_ARG, EXAMPLE_AGENT_ID } from './columns.js';

export const command = defineCommand({
  name: 'delete',
  summary: 'delete an agent, its tasks and any persistent agent built on it',
  args: [AGENT_ID_ARG],
  options: [YES_OPTION],
  notes: DELETE_NOTES,
  examples: [`agentctl agents delete ${EXAMPLE_AGENT_ID} --yes`],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id'), yes: input.flag('yes') }),
  async run({ id, yes }, ctx) {
    const client = await ctx.client();
    await confirmAndDelete(ctx, id, `agent ${id} (with its tasks)`, yes, () => legacyAgents.delete(client, id));
  },
});
