import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'mcp',
  summary: 'serve the service to AI assistants over the Model Context Protocol (stdio, or --http PORT)',
  own: () => import('./serve.js'),
});
