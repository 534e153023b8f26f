import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'tasks',
  summary: 'legacy browser tasks: create, follow, inspect and cancel',
  examples: ['agentctl tasks create "Find the cheapest flight from Oslo to Rome in May" --follow', 'agentctl tasks list --status failed'],
  notes: 'With --agent ID a command uses the routes of that browser-use agent; without it, the standalone task routes.',
  verbs: {
    list: () => import('./list.js'),
    create: () => import('./create.js'),
    get: () => import('./get.js'),
    update: () => import('./update.js'),
    replace: () => import('./replace.js'),
    delete: () => import('./delete.js'),
    cancel: () => import('./cancel.js'),
    result: () => import('./result.js'),
    'run-batch': () => import('./run-batch.js'),
    'batch-report': () => import('./batch-report.js'),
    wait: () => import('./wait.js'),
  },
});
