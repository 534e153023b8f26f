import { legacyAgents } from '../../api/legacy-agents.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseListOptions, printList } from '../shared/list.js';
import { agentColumns } from './columns.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const list = parseListOptions(options);
  const client = await ctx.client();
  await printList(
    ctx,
    { page: (request) => legacyAgents.listPage(client, request), all: (request) => legacyAgents.listAll(client, request) },
    list,
    agentColumns,
  );
};
