import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'schedule-preview',
  summary: 'check a schedule expression locally, describe it and list its next fire times (UTC)',
  own: () => import('./preview.js'),
});
