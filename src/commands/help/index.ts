import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'help',
  summary: 'show help for a command: agentctl help tasks create is agentctl tasks create --help',
  own: () => import('./show.js'),
});
