import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';

export function register(program: Command): void {
  examples(
    program
      .command('schedule-preview')
      .description('check a schedule expression locally, describe it and list its next fire times (UTC)')
      .argument('<expr>', 'the schedule: @daily, "@every 1h 30m", "0 9 * * mon-fri", ...')
      .option('--count <n>', 'how many fire times, 1..1000', '5')
      .option('--from <iso>', 'list fire times after this instant (ISO 8601, default now)')
      .option('--tz <zone>', 'show times in this IANA time zone (the schedule itself runs in UTC)')
      .option('--agent <id>', 'also ask the service for its answer (POST /agents/ID/schedule/preview/)')
      .addHelpText(
        'after',
        '\nGrammar (as the service accepts it):\n' +
          '  @yearly @annually @monthly @weekly @daily @hourly   (case-sensitive; no @midnight, no @reboot)\n' +
          '  @every 90s | @every 1h 30m                          (units s m h d, parts separated by spaces)\n' +
          '  minute hour day-of-month month day-of-week          (UTC; day-of-week 0-6 or sun..sat;\n' +
          '                                                       no 7, month names, L, # or ?)\n' +
          'When both day-of-month and day-of-week are restricted, a day must match both (unlike classic cron).\n' +
          'An invalid expression exits 2 with the reason; nothing is sent without --agent.',
      ),
    [
      'agentctl schedule-preview "0 9 * * mon-fri"',
      'agentctl schedule-preview "@every 1h 30m" --count 3 --from 2026-01-01T00:00:00Z',
      'agentctl schedule-preview "30 6 * * *" --tz Europe/Oslo',
      'agentctl schedule-preview @daily --agent 7c9e6679-7425-40de-944b-e07fc1f90ae7 --json | jq .service',
    ],
  ).action(lazy(() => import('./preview.js')));
}
