import { defineNoun } from '../../cli/define.js';

export const noun = defineNoun({
  name: 'config',
  summary: 'read and change stored settings (per --profile; file mode 0600)',
  notes:
    'Precedence: flag > environment (AGENTCTL_BASE_URL, AGENTCTL_API_KEY) > profile > built-in default.\n' +
    'Keys: base-url, api-key, and the preferences output (json: print JSON as with --json; table: a table even\n' +
    'when piped; auto: a table on a terminal, tab-separated when piped), timeout (seconds per request) and\n' +
    'insecure-http (true: a plain http:// base URL to another machine may take the key in clear text, as with --insecure-http).',
  examples: ['agentctl config list', 'agentctl config set base-url https://service.example/api/v1 --profile prod', 'agentctl config set output json'],
  verbs: {
    get: () => import('./get.js'),
    set: () => import('./set.js'),
    unset: () => import('./unset.js'),
    list: () => import('./list.js'),
    path: () => import('./path.js'),
  },
});
