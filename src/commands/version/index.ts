import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'version',
  summary: 'print the version of agentctl and of the Node.js it runs on (--version prints the bare number)',
  own: () => import('./show.js'),
});
