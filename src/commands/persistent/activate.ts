import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { setActive } from './activation.js';
import { AGENT_ID_ARG, ID } from './options.js';

export const command = defineCommand({
  name: 'activate',
  summary: 'activate an agent (restores an expired schedule)',
  args: [AGENT_ID_ARG],
  examples: [`agentctl persistent activate ${ID}`],
  parse: (input) => ({ id: checkUuid(input.arg(0) ?? '', 'agent id') }),
  run: ({ id }, ctx) => setActive(ctx, id, true),
});
