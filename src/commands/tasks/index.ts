import type { Command } from 'commander';
import { TASK_STATUSES } from '../../contract/enums.js';
import { examples } from '../../cli/help.js';
import { choiceOption, collect } from '../../cli/options.js';
import { lazy } from '../../cli/lazy.js';
import { addListOptions } from '../shared/list.js';

const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

function agentOption(command: Command): Command {
  return command.option('--agent <id>', 'use the agent-scoped routes of this browser-use agent (UUID)');
}

/** The task fields shared by create, update and replace. */
function addTaskFields(command: Command): Command {
  return command
    .option('--prompt-file <path>', 'read the prompt from a file (- for stdin)')
    .option('--output-schema <path|json>', 'JSON Schema for a structured result: a file, @file, - for stdin, or inline JSON')
    .option('--secret <domain> <key=value>', 'a secret for a domain (repeatable; argv is visible to others, prefer the next two)', collect)
    .option('--secrets-file <path>', 'secrets as JSON: {"https://site": {"KEY": "value"}} (- for stdin)')
    .option('--secret-env <domain> <key=envvar>', 'a secret read from an environment variable (repeatable)', collect)
    .option('--webhook <url>', 'http(s) URL called once when the task ends');
}

export function register(program: Command): void {
  const tasks = examples(
    program
      .command('tasks')
      .description('legacy browser tasks: create, follow, inspect and cancel')
      .addHelpText('after', '\nWith --agent ID a command uses the routes of that browser-use agent; without it, the standalone task routes.'),
    ['agentctl tasks create "Find the cheapest flight from Oslo to Rome in May" --follow', 'agentctl tasks list --status failed'],
  );

  examples(
    agentOption(
      addListOptions(
        tasks
          .command('list')
          .description('list tasks, newest first')
          .addOption(choiceOption('--status <status>', 'keep only tasks in this status (filtered by agentctl: pages are read until --page-size tasks match or the list ends)', TASK_STATUSES)),
      ),
    ),
    ['agentctl tasks list', 'agentctl tasks list --status failed --all --jsonl | jq -r .id'],
  ).action(lazy(() => import('./list.js')));

  examples(
    agentOption(
      addTaskFields(
        tasks
          .command('create')
          .description('create a task (and optionally wait for it)')
          .argument('[prompt]', 'what the browser agent should do (- reads stdin)'),
      )
        .option('--wait <sec>', 'let the service hold the request until the task ends, 0..1350 seconds')
        .option('--follow', 'poll until the task ends, print the result, and exit with the task\'s code')
        .option('--interval <sec>', 'seconds between polls with --follow', '2')
        .option('--id-only', 'print only the new task\'s id')
        .option('--webhook-listen', 'start a local listener, register it as the webhook, wait for the callback, print the result and exit with the task\'s code (polls slowly as a fallback)')
        .option('--public-url <url>', 'with --webhook-listen: public base URL (e.g. a tunnel) the service calls; the listener\'s secret path is appended')
        .option('--listen-host <host>', 'with --webhook-listen: address to listen on (default 127.0.0.1)')
        .option('--listen-port <port>', 'with --webhook-listen: port to listen on (default 0 = any free port)')
        .option('--fallback-interval <sec>', 'with --webhook-listen: poll this often in case the webhook never arrives (default 15)')
        .addHelpText(
          'after',
          '\n--webhook-listen: a listener on 127.0.0.1 (any free port, a random secret path) is registered as the\n' +
            'task\'s webhook, and the command ends when the callback arrives. A slow poll runs alongside (every\n' +
            '--fallback-interval seconds), so a webhook that never comes (the service cannot reach this machine,\n' +
            'a lost request) delays the result but never hangs the job. For a remote service, run a tunnel to\n' +
            '--listen-port and pass its public address as --public-url.',
        ),
    ),
    [
      'agentctl tasks create "Find the cheapest flight from Oslo to Rome in May" --follow',
      'id=$(agentctl tasks create "Summarise example.com" --id-only)',
      'agentctl tasks create --prompt-file prompt.txt --output-schema schema.json --secrets-file secrets.json --json',
      'echo "Log in and download the invoice" | agentctl tasks create - --secret-env https://shop.example USER=SHOP_USER',
      'agentctl tasks create "Check the status page" --webhook-listen; echo "exit $?"   # 0 completed, 5 failed, 6 cancelled',
    ],
  ).action(lazy(() => import('./create.js')));

  examples(agentOption(tasks.command('get').description('show one task').argument('<id>', 'task id (UUID)')), [
    `agentctl tasks get ${ID}`,
    `agentctl tasks get ${ID} --json | jq -r .status`,
  ]).action(lazy(() => import('./get.js')));

  examples(
    agentOption(
      addTaskFields(tasks.command('update').description('change some fields of a task (PATCH)').argument('<id>', 'task id (UUID)'))
        .option('--prompt <text>', 'new prompt (only while the task is pending)')
        .option('--no-webhook', 'remove the webhook')
        .option('--credits-cost <decimal>', 'credits used, e.g. 0.4 (up to 9 integer and 3 fractional digits)'),
    ),
    [`agentctl tasks update ${ID} --webhook https://hooks.example/done`, `agentctl tasks update ${ID} --credits-cost 1.250`],
  ).action(lazy(() => import('./update.js')));

  examples(
    agentOption(
      addTaskFields(
        tasks.command('replace').description('replace a task (PUT)').argument('<id>', 'task id (UUID)').argument('[prompt]', 'the prompt (- reads stdin)'),
      ).option('--credits-cost <decimal>', 'credits used, e.g. 0.4'),
    ),
    [`agentctl tasks replace ${ID} "New prompt" --webhook https://hooks.example/done`],
  ).action(lazy(() => import('./replace.js')));

  examples(
    agentOption(
      tasks
        .command('delete')
        .description('delete a task (a running task is not stopped: cancel it first)')
        .argument('<id>', 'task id (UUID)')
        .option('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
    ),
    [`agentctl tasks delete ${ID} --yes`],
  ).action(lazy(() => import('./delete.js')));

  examples(agentOption(tasks.command('cancel').description('cancel a pending or running task').argument('<id>', 'task id (UUID)')), [
    `agentctl tasks cancel ${ID}`,
  ]).action(lazy(() => import('./cancel.js')));

  examples(agentOption(tasks.command('result').description('print a task\'s result').argument('<id>', 'task id (UUID)')), [
    `agentctl tasks result ${ID}`,
    `agentctl tasks result ${ID} --json | jq .result`,
  ]).action(lazy(() => import('./result.js')));

  examples(
    agentOption(
      tasks
        .command('wait')
        .description('wait until a task ends, print its result; exit 0 completed, 5 failed, 6 cancelled, 7 timed out')
        .argument('<id>', 'task id (UUID)')
        .option('--interval <sec>', 'seconds between polls', '2')
        .addHelpText('after', '\n--timeout SEC (a global option) limits the whole wait here; by default it waits until the task ends.'),
    ),
    [`agentctl tasks wait ${ID} --timeout 600`, `agentctl tasks wait ${ID} --json | jq .result`],
  ).action(lazy(() => import('./wait.js')));
}
