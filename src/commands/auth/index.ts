import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'auth',
  summary: 'log in to a deployment, check, print or remove the stored API key',
  examples: ['printf %s "$KEY" | agentctl auth login --base-url https://service.example/api/v1', 'agentctl auth status'],
  verbs: {
    login: () => import('./login.js'),
    status: () => import('./status.js'),
    logout: () => import('./logout.js'),
    token: () => import('./token.js'),
  },
});
