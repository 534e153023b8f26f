import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';

const KEYS = 'base-url or api-key';

export function register(program: Command): void {
  const config = examples(
    program
      .command('config')
      .description('read and change stored settings (per --profile; file mode 0600)')
      .addHelpText('after', '\nPrecedence: flag > environment (AGENTCTL_BASE_URL, AGENTCTL_API_KEY) > profile > built-in default.'),
    ['agentctl config list', 'agentctl config set base-url https://service.example/api/v1 --profile prod'],
  );

  examples(config.command('get').description('print one setting (an API key is shown masked)').argument('<key>', KEYS), [
    'agentctl config get base-url',
    'agentctl config get base-url --profile prod',
  ]).action(lazy(() => import('./get.js')));

  examples(
    config
      .command('set')
      .description('store a setting in the profile')
      .argument('<key>', KEYS)
      .argument('<value>', 'the value; - reads it from stdin (use this for api-key)'),
    ['agentctl config set base-url https://service.example/api/v1 --profile prod', 'printf %s "$KEY" | agentctl config set api-key - --profile prod'],
  ).action(lazy(() => import('./set.js')));

  examples(config.command('unset').description('remove a setting from the profile').argument('<key>', KEYS), [
    'agentctl config unset base-url',
  ]).action(lazy(() => import('./unset.js')));

  examples(config.command('list').description('show the settings of the profile (or of every profile with --all-profiles)').option('--all-profiles', 'every profile'), [
    'agentctl config list',
    'agentctl config list --all-profiles --json',
  ]).action(lazy(() => import('./list.js')));

  examples(config.command('path').description('print where the config file lives'), ['agentctl config path']).action(
    lazy(() => import('./path.js')),
  );
}
