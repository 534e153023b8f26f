import type { Command } from 'commander';
import { TASK_STATUSES } from '../../contract/enums.js';
import { examples } from '../../cli/help.js';
import { choiceOption, collect } from '../../cli/options.js';
import { lazy } from '../../cli/lazy.js';
import { addListOptions } from '../shared/list.js';
import { WATCH_OPTION } from '../shared/watch-option.js';
import { DEFAULT_MAX_OUTAGE_MS, pollsInWait } from '../../api/wait.js';

/** The limits shared by every waiting command, explained once. */
const WAIT_LIMITS_HELP =
  '\nWaiting: polls start 0.1 s apart and grow with the time waited (10% of it) up to --interval, so a\n' +
  `short task is noticed within ~0.2 s and a 10-minute wait costs about ${pollsInWait(600_000)} requests (at --interval 2).\n` +
  '--timeout SEC limits the whole command here (with --follow, the create too), not one request; it then exits 7\n' +
  'with the command that resumes the wait. While the service is unreachable (network errors, 5xx, 429)\n' +
  'the wait keeps trying with backoff (Retry-After honoured) and says so on stderr; after --max-outage\n' +
  `SEC (default ${DEFAULT_MAX_OUTAGE_MS / 1000}) it gives up: exit 8 (unreachable) or 1 (service errors), with the resume command.`;

const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

const WAIT_MANY_HELP = `
Several ids: one poller waits for all of them (or, with --any, for the first to end) and prints one
JSON line per task as it ends, {"id", "status", "result", "error"}, with a summary on stderr.
Exit codes: 0 when every task completed, else the worst outcome's code (4 an unknown id, 5 failed,
6 cancelled); with --any, the first task's code; 7 when --timeout ran out (the remaining ids are
printed in the command that resumes the wait); 130 on Ctrl-C, likewise.`;

const BATCH_HELP = `
Input: one task a line. A line starting with { is a JSON object with "prompt" (required) and
optionally "output_schema", "secrets", "webhook", "agent" (agent id) and "key" (your own id, echoed
back); any other line is a prompt. Blank lines are skipped. Every line is checked before the first
request: a bad line is reported with its number and nothing is sent (exit 2).

Output: one JSON line per task on stdout, {"line", "key", "id", "status", "result", "error"}, as
its outcome is known: status "created" (without --follow), or "completed", "failed", "cancelled"
when it ends (--follow); "rejected" when the service refused it (4xx: nothing was created),
"unknown" when the service failed (5xx) or the connection broke after the create was sent.
Progress (counts, rate, ETA) goes to stderr on a terminal, and a summary at the end.

Resume: each created task's id is written to the ledger (FILE.ledger, or --ledger PATH) as soon as
it exists. Running the same command again creates nothing twice: it reuses the recorded ids and
waits for them. A line whose outcome is unknown is reported, never sent again blindly: check
\`agentctl tasks list\`, then rerun with --retry-unknown to send it.

Rate limits: a 429 pauses every worker for its Retry-After.
Exit codes: 0 all created (all completed with --follow); otherwise the worst outcome's code:
3 auth and 8 unreachable (both stop the run), 1 rejected/unknown/service error, 4 not found,
5 failed, 6 cancelled; 2 bad input (nothing sent); 130 Ctrl-C (rerun to resume).`;

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
          .addOption(choiceOption('--status <status>', 'keep only tasks in this status (filtered by agentctl: pages are read until --page-size tasks match or the list ends)', TASK_STATUSES))
          .option(WATCH_OPTION.flags, WATCH_OPTION.description),
      ),
    ),
    ['agentctl tasks list', 'agentctl tasks list --status failed --all --jsonl | jq -r .id', 'agentctl tasks list --status in_progress --watch 5'],
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
        .option('--interval <sec>', 'with --follow: longest time between polls, seconds', '2')
        .option('--id-only', 'print only the new task\'s id')
        .option('--webhook-listen', 'start a local listener, register it as the webhook, wait for the callback, print the result and exit with the task\'s code (polls slowly as a fallback)')
        .option('--public-url <url>', 'with --webhook-listen: public base URL (e.g. a tunnel) the service calls; the listener\'s secret path is appended')
        .option('--listen-host <host>', 'with --webhook-listen: address to listen on (default 127.0.0.1)')
        .option('--listen-port <port>', 'with --webhook-listen: port to listen on (default 0 = any free port)')
        .option('--fallback-interval <sec>', 'with --webhook-listen: poll this often in case the webhook never arrives (default 15)')
        .option('--max-outage <sec>', `with --follow or --webhook-listen: give up when the service is unreachable this long (default ${DEFAULT_MAX_OUTAGE_MS / 1000})`)
        .addHelpText(
          'after',
          '\n--webhook-listen: a listener on 127.0.0.1 (any free port, a random secret path) is registered as the\n' +
            'task\'s webhook, and the command ends when the callback arrives. A slow poll runs alongside (every\n' +
            '--fallback-interval seconds), so a webhook that never comes (the service cannot reach this machine,\n' +
            'a lost request) delays the result but never hangs the job. For a remote service, run a tunnel to\n' +
            '--listen-port and pass its public address as --public-url.\n' +
            WAIT_LIMITS_HELP,
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

  examples(agentOption(tasks.command('get').description('show one task').argument('<id>', 'task id (UUID)').option(WATCH_OPTION.flags, WATCH_OPTION.description)), [
    `agentctl tasks get ${ID}`,
    `agentctl tasks get ${ID} --json | jq -r .status`,
    `agentctl tasks get ${ID} --watch 1`,
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

  examples(
    agentOption(
      tasks
        .command('result')
        .description('print a task\'s result')
        .argument('<id>', 'task id (UUID)')
        .option('--check-schema', 'check the result against the task\'s output_schema locally; exit 10 when it does not match')
        .addHelpText(
          'after',
          '\n--check-schema validates the result with a JSON Schema validator (Ajv: draft-07, or 2020-12 when the\n' +
            'schema\'s $schema says so; formats such as date-time are checked). A match prints the result as usual;\n' +
            'a mismatch prints nothing on stdout, lists where it differs on stderr and exits 10. A task that did\n' +
            'not complete exits with its code (5 failed, 6 cancelled, 9 still running); no output_schema exits 2.',
        ),
    ),
    [
      `agentctl tasks result ${ID}`,
      `agentctl tasks result ${ID} --json | jq .result`,
      `agentctl tasks result ${ID} --check-schema --json | jq .result > data.json   # exit 10: wrong shape`,
    ],
  ).action(lazy(() => import('./result.js')));

  examples(
    tasks
      .command('run-batch')
      .description('create many tasks from a JSON Lines file (or plain prompts, one a line), resumably; --follow waits for all')
      .argument('[file]', 'the tasks, one a line (- or nothing reads stdin)')
      .option('--concurrency <n>', 'requests in flight at once, 1..64', '4')
      .option('--follow', 'wait for every task; print one JSON line per task as it ends')
      .option('--interval <sec>', 'with --follow: longest time between polls, seconds', '2')
      .option('--max-outage <sec>', 'with --follow: give up when the service is unreachable this long', '300')
      .option('--ledger <path>', 'where each line\'s task id is recorded (default FILE.ledger beside the input)')
      .option('--shard <i/n>', 'take every n-th task from the i-th (1-based), to split one file across CI jobs')
      .option('--retry-unknown', 'send again the lines whose create outcome is unknown (check them first)')
      .addHelpText('after', BATCH_HELP),
    [
      'agentctl tasks run-batch tasks.jsonl --concurrency 8 --follow > results.jsonl',
      'agentctl tasks run-batch prompts.txt --shard "$CI_NODE_INDEX/$CI_NODE_TOTAL" --follow',
      'printf "Check example.com\\nCheck example.org\\n" | agentctl tasks run-batch - --follow | jq -r .status',
    ],
  ).action(lazy(() => import('./run-batch.js')));

  examples(
    agentOption(
      tasks
        .command('wait')
        .description('wait until a task ends, print its result; exit 0 completed, 5 failed, 6 cancelled, 7 timed out')
        .argument('<ids...>', 'task id (UUID); several ids wait together')
        .option('--interval <sec>', 'longest time between polls, seconds', '2')
        .option('--max-outage <sec>', `give up when the service is unreachable this long (default ${DEFAULT_MAX_OUTAGE_MS / 1000})`)
        .option('--any', 'with several ids: stop at the first task that ends, with its exit code'),
    ).addHelpText('after', `${WAIT_LIMITS_HELP}\nBy default it waits until the task ends.\n${WAIT_MANY_HELP}`),
    [
      `agentctl tasks wait ${ID} --timeout 600`,
      `agentctl tasks wait ${ID} --max-outage 60 --json | jq .result`,
      'agentctl tasks wait $(agentctl tasks list --status in_progress --jsonl | jq -r .id) | jq -r \'[.id, .status] | @tsv\'',
      `agentctl tasks wait ${ID} 9b2e4c1d-7a3f-4e5b-8c6d-0f1e2d3c4b5a --any`,
    ],
  ).action(lazy(() => import('./wait.js')));
}
