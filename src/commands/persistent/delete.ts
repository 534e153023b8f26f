import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { DELETE_NOTES, YES_OPTION, confirmAndDelete } from '../common/confirm-delete.js';
import { AGENT_ID_ARG, ID } from './options.js';

export const command = defineCommand({
  name: 'delete',
  summary: 'delete an agent',
  args: [AGENT_ID_ARG],
  options: [YES_OPTION],
  notes: DELETE_NOTES,
  examples: [`agentctl persistent delete ${ID} --yes`],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id'), yes: input.flag('yes') }),
  async run({ id, yes }, ctx) {
    const client = await ctx.client();
    await confirmAndDelete(ctx, id, `persistent agent ${id}`, yes, () => persistentAgents.delete(client, id));
  },
});
