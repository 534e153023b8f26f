import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';
import { addListOptions } from '../shared/list.js';

export function registerAgents(program: Command): void {
  const agents = examples(program.command('agents').description('legacy browser-use agents (records that run tasks)'), [
    'agentctl agents list',
    'agentctl agents create --name shopping',
  ]);

  examples(
    addListOptions(agents.command('list').description('list browser-use agents, newest first')),
    ['agentctl agents list', 'agentctl agents list --all --jsonl | jq -r .name'],
  ).action(lazy(() => import('./list.js')));

  examples(
    agents.command('create').description('create a browser-use agent').requiredOption('--name <name>', 'agent name (at most 64 characters)'),
    ['agentctl agents create --name shopping', 'id=$(agentctl agents create --name shopping --json | jq -r .id)'],
  ).action(lazy(() => import('./create.js')));

  examples(agents.command('get').description('show one agent').argument('<id>', 'agent id (UUID)'), [
    'agentctl agents get 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f',
  ]).action(lazy(() => import('./get.js')));

  examples(
    agents
      .command('update')
      .description('change some fields of an agent (PATCH)')
      .argument('<id>', 'agent id (UUID)')
      .option('--name <name>', 'new name (at most 64 characters)'),
    ['agentctl agents update 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f --name travel'],
  ).action(lazy(() => import('./update.js')));

  examples(
    agents
      .command('replace')
      .description('replace an agent (PUT): every writable field is set')
      .argument('<id>', 'agent id (UUID)')
      .requiredOption('--name <name>', 'name (at most 64 characters)'),
    ['agentctl agents replace 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f --name travel'],
  ).action(lazy(() => import('./replace.js')));

  examples(
    agents
      .command('delete')
      .description('delete an agent, its tasks and any persistent agent built on it')
      .argument('<id>', 'agent id (UUID)')
      .option('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
    ['agentctl agents delete 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f --yes'],
  ).action(lazy(() => import('./delete.js')));
}
