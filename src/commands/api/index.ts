import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'api',
  summary: 'send a raw authenticated request to any route and print the JSON answer',
  own: () => import('./request.js'),
});
