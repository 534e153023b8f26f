// The agents-as-code commands: three of their own (`agentctl plan`, `apply`, `export`), one folder
// because they share how a plan is shown (show.ts).
import { defineNoun } from '../../cli/define.js';

export const plan = defineNoun({
  name: 'plan',
  summary: 'agents as code: show what apply would change (exit 11 when it would change something)',
  own: () => import('./plan.js'),
});

export const apply = defineNoun({
  name: 'apply',
  summary: 'agents as code: make the service match the agent files of a folder',
  own: () => import('./apply.js'),
});

export const exportNoun = defineNoun({
  name: 'export',
  summary: "agents as code: write a service's persistent agents as files",
  own: () => import('./export.js'),
});
