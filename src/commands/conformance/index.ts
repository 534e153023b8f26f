import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'conformance',
  summary: 'check a deployment against what agentctl expects: a score per operation and what differs from the emulator',
  own: () => import('./check.js'),
});
