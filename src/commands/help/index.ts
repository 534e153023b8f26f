import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'help',
  summary: 'show help for a command: agentctl help tasks create is agentctl tasks create --help',
  examples: ['agentctl help', 'agentctl help tasks', 'agentctl help tasks create'],
  own: () => import('./show.js'),
});
