import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';

export function register(program: Command): void {
  const auth = examples(program.command('auth').description('log in to a deployment, check or remove the stored API key'), [
    'printf %s "$KEY" | agentctl auth login --base-url https://service.example/api/v1',
    'agentctl auth status',
  ]);

  examples(
    auth
      .command('login')
      .description('check an API key with the service (GET /ping/) and store it in the profile')
      .addHelpText('after', '\nThe key is read from stdin when piped, else from a hidden prompt (or --api-key-file PATH).'),
    [
      'agentctl auth login --base-url https://service.example/api/v1',
      'printf %s "$KEY" | agentctl auth login --profile prod --base-url https://service.example/api/v1',
    ],
  ).action(lazy(() => import('./login.js')));

  examples(auth.command('status').description('show which deployment and key are in use, and check them'), [
    'agentctl auth status',
    'agentctl auth status --json | jq .user',
  ]).action(lazy(() => import('./status.js')));

  examples(auth.command('logout').description('remove the stored API key from the profile'), [
    'agentctl auth logout',
    'agentctl auth logout --profile prod',
  ]).action(lazy(() => import('./logout.js')));
}
