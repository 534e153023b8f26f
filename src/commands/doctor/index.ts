import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'doctor',
  summary: 'check the setup: base URL, key source, config file, reachability, latency and clock skew',
  own: () => import('./check.js'),
});
