import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'agents',
  summary: 'legacy browser-use agents (records that run tasks)',
  examples: ['agentctl agents list', 'agentctl agents create --name shopping'],
  verbs: {
    list: () => import('./list.js'),
    create: () => import('./create.js'),
    get: () => import('./get.js'),
    update: () => import('./update.js'),
    replace: () => import('./replace.js'),
    delete: () => import('./delete.js'),
  },
});
