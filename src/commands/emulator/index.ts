import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'emulator',
  summary: 'run a local, in-memory copy of the service for trying agentctl and testing scripts (no browser runs)',
  own: () => import('./start.js'),
  verbs: { check: () => import('./check.js') },
});
