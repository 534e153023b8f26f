import { persistentAgents } from '../../api/persistent-agents.js';
import type { CommandRun } from '../../cli/lazy.js';
import { parseListOptions, printList } from '../shared/list.js';
import { agentColumns } from './columns.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const list = parseListOptions(options);
  const client = await ctx.client();
  await printList(
    ctx,
    { page: (request) => persistentAgents.listPage(client, request), all: (request) => persistentAgents.listAll(client, request) },
    list,
    agentColumns(ctx.out.chalk),
  );
};
