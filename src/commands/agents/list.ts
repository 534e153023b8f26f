import { legacyAgents } from '../../api/legacy-agents.js';
import { defineCommand } from '../../cli/define.js';
import { LIST_OPTIONS, parseListOptions, printList } from '../common/list.js';
import { agentColumns } from './columns.js';

export const command = defineCommand({
  name: 'list',
  summary: 'list browser-use agents, newest first',
  options: LIST_OPTIONS,
  examples: ['agentctl agents list', 'agentctl agents list --all --jsonl | jq -r .name'],
  parse: (input) => parseListOptions(input),
  async run(list, ctx) {
    const client = await ctx.client();
    await printList(
      ctx,
      { page: (request) => legacyAgents.listPage(client, request), all: (request) => legacyAgents.listAll(client, request) },
      list,
      agentColumns,
    );
  },
});
