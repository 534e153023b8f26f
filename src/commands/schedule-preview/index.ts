import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'schedule-preview',
  summary: 'check a schedule expression locally, describe it and list its next fire times (UTC)',
  examples: ['agentctl schedule-preview "0 9 * * mon-fri"', 'agentctl schedule-preview "@every 1h 30m" --count 3'],
  own: () => import('./preview.js'),
});
