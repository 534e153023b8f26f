import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'persistent',
  summary: 'persistent agents: long-lived agents with a charter, a schedule and a contact policy',
  examples: ['agentctl persistent create --name scout --charter "Watch the Oslo-Rome fare" --schedule @daily', 'agentctl persistent list'],
  verbs: {
    list: () => import('./list.js'),
    get: () => import('./get.js'),
    create: () => import('./create.js'),
    update: () => import('./update.js'),
    replace: () => import('./replace.js'),
    delete: () => import('./delete.js'),
    activate: () => import('./activate.js'),
    deactivate: () => import('./deactivate.js'),
    message: () => import('./message.js'),
    chat: () => import('./chat.js'),
    'wait-event': () => import('./wait-event.js'),
    status: () => import('./status.js'),
    timeline: () => import('./timeline.js'),
    'web-tasks': () => import('./web-tasks.js'),
  },
});
