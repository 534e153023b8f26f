import { persistentAgents } from '../../api/persistent-agents.js';
import { defineCommand } from '../../cli/define.js';
import { LIST_OPTIONS, parseListOptions, printList } from '../common/list.js';
import { agentColumns } from './columns.js';

export const command = defineCommand({
  name: 'list',
  summary: 'list persistent agents, newest first',
  options: LIST_OPTIONS,
  examples: ['agentctl persistent list', "agentctl persistent list --all --jsonl | jq -r 'select(.is_active) | .name'"],
  parse: (input) => parseListOptions(input),
  async run(list, ctx) {
    const client = await ctx.client();
    await printList(
      ctx,
      { page: (request) => persistentAgents.listPage(client, request), all: (request) => persistentAgents.listAll(client, request) },
      list,
      agentColumns(ctx.out.chalk),
    );
  },
});
