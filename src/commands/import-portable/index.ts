import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'import-portable',
  summary: 'read a Gobii portable export ZIP into agent files, and report what the API cannot restore',
  own: () => import('./import.js'),
});
