import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';

export function register(program: Command): void {
  examples(
    program
      .command('api')
      .description('send a raw authenticated request to any route and print the JSON answer')
      .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
      .argument('<path>', 'path below the base URL, e.g. /ping/ (the trailing slash is added)')
      .option('--data <json|@file>', 'request body: inline JSON, @FILE, or @- for stdin')
      .option('--paginate', 'for GET on a list: follow every page and print all results as one array'),
    [
      'agentctl api GET /ping/',
      'agentctl api GET /tasks/browser-use/ --paginate | jq length',
      'agentctl api POST /agents/browser-use/ --data \'{"name":"scraper"}\'',
      'agentctl api POST "/webhooks/inbound/agents/$HOOK/?t=$SECRET" --data @event.json',
    ],
  ).action(lazy(() => import('./request.js')));
}
