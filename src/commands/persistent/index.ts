import type { Command } from 'commander';
import { choiceOption, collect } from '../../cli/options.js';
import { LIFE_STATES, MESSAGE_CHANNELS, TASK_STATUSES, TIMELINE_DIRECTIONS, WHITELIST_POLICIES } from '../../contract/enums.js';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';
import { addListOptions } from '../shared/list.js';

const ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** The writable agent fields shared by create, update and replace. */
function addAgentFields(command: Command, nameHelp: string): Command {
  return command
    .option('--name <name>', nameHelp)
    .option('--charter <text>', 'the agent\'s assigned objectives')
    .option('--charter-file <path>', 'read the charter from a file (- for stdin)')
    .option('--schedule <expr>', 'when the agent wakes up, evaluated in UTC: @daily, "@every 1h 30m", "0 9 * * mon-fri" (see schedule-preview)')
    .option('--no-schedule', 'clear the schedule (the agent only acts when messaged)')
    .option('--active', 'the agent is active')
    .option('--paused', 'the agent is paused (is_active false)')
    .addOption(choiceOption('--life-state <state>', 'soft expiry state', LIFE_STATES))
    .addOption(choiceOption('--whitelist-policy <policy>', 'who may message the agent: default (owner and organisation) or manual (allowlist)', WHITELIST_POLICIES))
    .option('--preferred-contact <endpoint>', 'email, sms or a contact endpoint UUID')
    .option('--proactive', 'let the agent offer related help on its own')
    .option('--no-proactive', 'no proactive outreach')
    .option('--template-code <code>', 'create from a template')
    .option('--mcp-server <uuid>', 'enable a personal MCP server (repeatable)', collect);
}

export function register(program: Command): void {
  const persistent = examples(
    program.command('persistent').description('persistent agents: long-lived agents with a charter, a schedule and a contact policy'),
    ['agentctl persistent create --name scout --charter "Watch the Oslo-Rome fare" --schedule @daily', 'agentctl persistent list'],
  );

  examples(addListOptions(persistent.command('list').description('list persistent agents, newest first')), [
    'agentctl persistent list',
    'agentctl persistent list --all --jsonl | jq -r \'select(.is_active) | .name\'',
  ]).action(lazy(() => import('./list.js')));

  examples(persistent.command('get').description('show an agent: identity, schedule with its next runs, state and contact policy').argument('<id>', 'agent id (UUID)'), [
    `agentctl persistent get ${ID}`,
    `agentctl persistent get ${ID} --json | jq .schedule`,
  ]).action(lazy(() => import('./get.js')));

  examples(addAgentFields(persistent.command('create').description('create a persistent agent'), 'agent name, at most 255 characters (the service picks one if omitted)'), [
    'agentctl persistent create --name "Price watcher" --charter "Track the price of the Oslo-Rome flight" --schedule @daily',
    'agentctl persistent create --name digest --charter-file charter.md --schedule "0 7 * * mon-fri" --whitelist-policy manual',
    'id=$(agentctl persistent create --name scout --json | jq -r .id)',
  ]).action(lazy(() => import('./create.js')));

  examples(
    addAgentFields(persistent.command('update').description('change some fields of an agent (PATCH)').argument('<id>', 'agent id (UUID)'), 'new name, at most 255 characters'),
    [`agentctl persistent update ${ID} --schedule "@every 2h"`, `agentctl persistent update ${ID} --no-schedule --paused`],
  ).action(lazy(() => import('./update.js')));

  examples(
    addAgentFields(
      persistent.command('replace').description('replace an agent (PUT): --name is required; only the fields given are sent').argument('<id>', 'agent id (UUID)'),
      'name, at most 255 characters (required)',
    ),
    [`agentctl persistent replace ${ID} --name scout --charter-file charter.md --schedule @hourly`],
  ).action(lazy(() => import('./replace.js')));

  examples(
    persistent
      .command('delete')
      .description('delete an agent')
      .argument('<id>', 'agent id (UUID)')
      .option('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
    [`agentctl persistent delete ${ID} --yes`],
  ).action(lazy(() => import('./delete.js')));

  examples(persistent.command('activate').description('activate an agent (restores an expired schedule)').argument('<id>', 'agent id (UUID)'), [
    `agentctl persistent activate ${ID}`,
  ]).action(lazy(() => import('./activate.js')));

  examples(persistent.command('deactivate').description('pause an agent').argument('<id>', 'agent id (UUID)'), [
    `agentctl persistent deactivate ${ID}`,
  ]).action(lazy(() => import('./deactivate.js')));

  examples(
    persistent
      .command('message')
      .description('send a message to an agent, as on any of its channels')
      .argument('<id>', 'agent id (UUID)')
      .argument('<body>', 'the message text (- reads stdin)')
      .addOption(choiceOption('--channel <channel>', 'channel the message arrives on', MESSAGE_CHANNELS).makeOptionMandatory())
      .requiredOption('--sender <sender>', 'who sends it (an address, a number or a handle on that channel)')
      .option('--recipient <recipient>', 'the agent\'s address on that channel (needed when the agent has no endpoint for it)')
      .option('--subject <subject>', 'subject line (email)')
      .option('--metadata <json>', 'extra JSON object: inline, @file or - for stdin'),
    [
      `agentctl persistent message ${ID} "Please check the price again" --channel web --sender owner@example.com`,
      `git log -1 --format=%B | agentctl persistent message ${ID} - --channel email --sender ci@example.com --subject "New release"`,
    ],
  ).action(lazy(() => import('./message.js')));

  examples(
    persistent.command('status').description('is the agent working now: its running web tasks and its next scheduled run').argument('<id>', 'agent id (UUID)'),
    [`agentctl persistent status ${ID}`, `agentctl persistent status ${ID} --json | jq .processing_active`],
  ).action(lazy(() => import('./status.js')));

  examples(
    persistent
      .command('timeline')
      .description('the agent\'s activity log, oldest first: messages, thinking, plans and tool steps')
      .argument('<id>', 'agent id (UUID)')
      .addOption(choiceOption('--direction <direction>', 'which window: the newest (initial), or older/newer than --cursor', TIMELINE_DIRECTIONS))
      .option('--cursor <cursor>', 'cursor from a previous answer (oldest_cursor / newest_cursor)')
      .option('--limit <n>', 'events per request, 1..100 (service default 40)')
      .option('--all', 'page back to the very first event')
      .addHelpText(
        'after',
        '\n--json prints the service\'s answer (events with their cursors); with --all, one array of every event.\n' +
          '--jsonl prints one event per line. Events are always printed oldest first, so --all reads every\n' +
          'window before printing (one agent\'s history, not a stream).',
      ),
    [
      `agentctl persistent timeline ${ID}`,
      `agentctl persistent timeline ${ID} --all --jsonl | jq -r 'select(.kind == "message") | .timestamp'`,
      `agentctl persistent timeline ${ID} --direction older --cursor "$(agentctl persistent timeline ${ID} --json | jq -r .oldest_cursor)"`,
    ],
  ).action(lazy(() => import('./timeline.js')));

  examples(
    persistent
      .command('web-tasks')
      .description('the browser tasks the agent started, newest first')
      .argument('<id>', 'agent id (UUID)')
      .addOption(choiceOption('--status <status>', 'keep only tasks in this status', TASK_STATUSES))
      .option('--limit <n>', 'at most this many, 1..200 (service default 50)'),
    [`agentctl persistent web-tasks ${ID}`, `agentctl persistent web-tasks ${ID} --status in_progress --json | jq length`],
  ).action(lazy(() => import('./web-tasks.js')));
}
