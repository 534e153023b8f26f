import { createTimeoutMs, tasks, type TaskScope } from '../../api/tasks.js';
import { DEFAULT_MAX_OUTAGE_MS } from '../../api/wait.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { WAIT_EXITS } from '../../cli/exit-codes.js';
import { checkHttpUrl, parseIntegerFlag, parseSecondsFlag } from '../../contract/validate.js';
import { ExitCode, ExitError, UsageError } from '../../errors.js';
import { buildTaskBody, type TaskFieldOptions } from './body.js';
import { taskDetail } from '../../output/task-columns.js';
import { AGENT_OPTION, TASK_FIELD_OPTIONS, WAIT_LIMITS_HELP, parseScope, parseTaskFields, parseWaitLimits, type WaitFlags } from './options.js';
import { exitCodeForStatus, printResult, requestLimitMs, resumeCommand, startWait, waitAndReport, waitRanOut } from './outcome.js';
import type { ListenSettings } from './webhook-wait.js';

/** Default seconds between fallback polls: cheap (4 requests a minute), and bounds a lost webhook's cost. */
export const DEFAULT_FALLBACK_INTERVAL_SECONDS = 15;

const LISTEN_FLAGS = ['publicUrl', 'listenHost', 'listenPort', 'fallbackInterval'];

interface CreateOptions {
  scope: TaskScope;
  prompt?: string;
  fields: TaskFieldOptions;
  idOnly: boolean;
  /** --follow: poll until the task ends, within these limits. */
  follow?: WaitFlags;
  /** --webhook-listen: wait for the completion webhook. */
  listen?: ListenSettings;
}

export const command = defineCommand({
  name: 'create',
  summary: 'create a task (and optionally wait for it)',
  args: [{ name: '[prompt]', description: 'what the browser agent should do (- reads stdin)' }],
  options: [
    ...TASK_FIELD_OPTIONS,
    { flags: '--wait <sec>', description: 'let the service hold the request until the task ends, 0..1350 seconds' },
    { flags: '--follow', description: "poll until the task ends, print the result, and exit with the task's code" },
    { flags: '--interval <sec>', description: 'with --follow: longest time between polls, seconds', default: '2' },
    { flags: '--id-only', description: "print only the new task's id" },
    {
      flags: '--webhook-listen',
      description:
        "start a local listener, register it as the webhook, wait for the callback, print the result and exit with the task's code (polls slowly as a fallback)",
    },
    { flags: '--public-url <url>', description: "with --webhook-listen: public base URL (e.g. a tunnel) the service calls; the listener's secret path is appended" },
    { flags: '--listen-host <host>', description: 'with --webhook-listen: address to listen on (default 127.0.0.1)' },
    { flags: '--listen-port <port>', description: 'with --webhook-listen: port to listen on (default 0 = any free port)' },
    { flags: '--fallback-interval <sec>', description: 'with --webhook-listen: poll this often in case the webhook never arrives (default 15)' },
    {
      flags: '--max-outage <sec>',
      description: `with --follow or --webhook-listen: give up when the service is unreachable this long (default ${DEFAULT_MAX_OUTAGE_MS / 1000})`,
    },
    AGENT_OPTION,
  ],
  notes:
    '--webhook-listen: a listener on 127.0.0.1 (any free port, a random secret path) is registered as the\n' +
    "task's webhook, and the command ends when the callback arrives. A slow poll runs alongside (every\n" +
    '--fallback-interval seconds), so a webhook that never comes (the service cannot reach this machine,\n' +
    'a lost request) delays the result but never hangs the job. For a remote service, run a tunnel to\n' +
    '--listen-port and pass its public address as --public-url.\n\n' +
    WAIT_LIMITS_HELP,
  exitCodes: WAIT_EXITS,
  examples: [
    'agentctl tasks create "Find the cheapest flight from Oslo to Rome in May" --follow',
    'id=$(agentctl tasks create "Summarise example.com" --id-only)',
    'agentctl tasks create --prompt-file prompt.txt --output-schema schema.json --secrets-file secrets.json --json',
    'echo "Log in and download the invoice" | agentctl tasks create - --secret-env https://shop.example USER=SHOP_USER',
    'agentctl tasks create "Check the status page" --webhook-listen; echo "exit $?"   # 0 completed, 5 failed, 6 cancelled',
  ],
  parse(input): CreateOptions {
    const scope = parseScope(input);
    const fields = parseTaskFields(input);
    const follow = input.flag('follow');
    const common = { scope, prompt: input.arg(0), fields, idOnly: input.flag('idOnly') };
    // --webhook-listen and its companions: wait for the completion webhook (see webhook-wait.ts).
    if (input.flag('webhookListen') || LISTEN_FLAGS.some((name) => input.given(name))) return { ...common, listen: parseListen(input, follow) };
    if (follow && fields.wait !== undefined) throw new UsageError('choose --wait (the service waits) or --follow (agentctl polls), not both');
    // With --follow, --timeout bounds the whole command (create and wait), as in `tasks wait`.
    return { ...common, follow: follow ? parseWaitLimits(input) : undefined };
  },
  async run(options, ctx) {
    if (options.listen) return (await import('./webhook-wait.js')).createAndListen(ctx, { ...options, listen: options.listen });
    const { scope, prompt, fields, idOnly } = options;
    const limits = options.follow ? startWait(ctx, options.follow) : undefined;
    const body = await buildTaskBody(prompt, fields, 'create', ctx.io, ctx.redactor);

    const client = await ctx.client();
    ctx.onInterrupt('Interrupted while creating the task: it may exist already; check with `agentctl tasks list`.');
    const spinner = body.wait ? await ctx.spinner(`Creating the task and waiting up to ${body.wait}s`) : undefined;
    let task;
    try {
      const timeoutMs = createTimeoutMs(body, ctx.requestTimeoutMs);
      task = await tasks.create(client, scope, body, { timeoutMs: limits ? Math.min(timeoutMs, requestLimitMs(ctx, limits.deadline)) : timeoutMs, signal: ctx.signal });
    } finally {
      spinner?.stop();
    }
    ctx.onInterrupt(undefined);

    // The id is out the moment the task exists, whatever happens to the wait, so a script never
    // creates a second task to find out (stderr keeps --json's stdout one document).
    if (idOnly) ctx.out.line(task.id);
    if (limits) {
      // Under --json stderr holds only a JSON error, if any (it names the task id, as stdout's record does).
      if (!idOnly && !ctx.out.machine) ctx.out.info(`Created task ${task.id}; following it (Ctrl-C stops waiting, not the task).`);
      await waitAndReport(ctx, client, scope, task.id, { ...limits, silent: idOnly });
      return;
    }
    if (body.wait) {
      // The service waited: its answer carries the outcome (or a wait_error when time ran out).
      if (!idOnly) {
        if (ctx.out.machine || task.status === 'in_progress' || task.status === 'pending') ctx.out.record(task, taskDetail(task, ctx.out.chalk));
        else printResult(ctx, task);
      }
      if (task.status === 'pending' || task.status === 'in_progress') {
        waitRanOut(ctx, `The wait ran out; task ${task.id} keeps running`, resumeCommand(task.id, scope));
      }
      const code = exitCodeForStatus(task.status);
      if (code !== ExitCode.ok) throw new ExitError(code);
      return;
    }
    if (idOnly) return;
    if (ctx.out.settings.format === 'table') {
      ctx.out.line(`Created task ${task.id} (${task.status}).`);
      ctx.out.info(ctx.out.chalk.dim(`Wait for it: ${resumeCommand(task.id, scope)}`));
    } else {
      ctx.out.record(task, taskDetail(task, ctx.out.chalk));
    }
  },
});

function parseListen(input: ParseInput, follow: boolean): ListenSettings {
  if (!input.flag('webhookListen')) throw new UsageError('--public-url, --listen-host, --listen-port and --fallback-interval go with --webhook-listen');
  if (input.given('webhook')) throw new UsageError('choose --webhook URL or --webhook-listen, not both');
  if (follow) throw new UsageError('choose --follow (poll) or --webhook-listen (wait for the callback), not both');
  if (input.given('wait')) throw new UsageError('--wait (the service holds the request) does not go with --webhook-listen');
  const publicUrl = input.string('publicUrl');
  const fallbackInterval = input.string('fallbackInterval') ?? String(DEFAULT_FALLBACK_INTERVAL_SECONDS);
  return {
    publicUrl: publicUrl === undefined ? undefined : checkHttpUrl(publicUrl, '--public-url').toString(),
    host: input.string('listenHost') ?? '127.0.0.1',
    port: parseIntegerFlag(input.string('listenPort') ?? '0', '--listen-port', 0, 65535),
    // --timeout bounds the whole command, as in `tasks wait` and `--follow`; the fallback poll's pace is its own.
    limits: { ...parseWaitLimits(input), maxIntervalMs: parseSecondsFlag(fallbackInterval, '--fallback-interval', 0.05) * 1000 },
  };
}
