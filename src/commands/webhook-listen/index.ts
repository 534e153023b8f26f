import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'webhook-listen',
  summary: 'run a local HTTP listener for task-completion webhooks: check, print, store and forward each event',
  own: () => import('./listen.js'),
  verbs: { replay: () => import('./replay.js') },
});
