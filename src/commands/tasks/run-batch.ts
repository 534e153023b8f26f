// `tasks run-batch FILE`: many tasks as one job. The flags become a BatchOptions; the engine
// (src/batch/run.ts) checks every line, then creates the tasks, recording each id in the ledger the
// moment it exists, and with --follow waits for all of them.
import type { Context, GlobalFlags } from '../../cli/context.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { checkHttpUrl, parseIntegerFlag, parseSecondsFlag } from '../../contract/validate.js';
import { ExitCode, UsageError } from '../../errors.js';
import { shellWord } from '../../output/shell.js';
import { MAX_SHARDS, openSource, parseShard, type Shard } from '../../batch/input.js';
import { Ledger } from '../../batch/ledger.js';
import { DEFAULT_CONCURRENCY, InterruptedCheck, MAX_CONCURRENCY, runLocked, type BatchOptions, type ResolvedOptions } from '../../batch/run.js';
import { detectShard } from '../../batch/shard.js';

/** With --webhook-listen, a task whose webhook is awaited is polled only this often (a fallback). */
const DEFAULT_BATCH_FALLBACK_SECONDS = 60;
const LISTEN_FLAGS = ['publicUrl', 'listenHost', 'listenPort', 'fallbackInterval'];

const BATCH_HELP = `Input: one task a line. A line starting with { is a JSON object with "prompt" (required) and
optionally "output_schema", "secrets", "webhook", "agent" (agent id) and "key" (your own id, echoed
back); any other line is a prompt. Blank lines are skipped. Every line is checked before the first
request: a bad line is reported with its number and nothing is sent (exit 2).

Output: one JSON line per task on stdout, {"line", "key", "id", "status", "result", "error"}, as
its outcome is known: status "created" (without --follow; "reused" for a line whose task a
previous run created, from the ledger), or "completed", "failed", "cancelled"
when it ends (--follow); "rejected" when the service refused it (4xx: nothing was created),
"unknown" when the service failed (5xx) or the connection broke after the create was sent.
Progress (counts, rate, ETA) goes to stderr on a terminal, and a summary at the end.

Resume: each created task's id is written to the ledger (FILE.ledger, or --ledger PATH) as soon as
it exists. Running the same command again creates nothing twice: it reuses the recorded ids and
waits for them; against another service (or an emulator that forgot them) it exits 2, saying so
and how to start afresh. A line whose outcome is unknown is reported, never sent again blindly: check
\`agentctl tasks list\`, then rerun with --retry-unknown to send it. A run killed outright (kill -9,
a crash) leaves up to 4 lines per --concurrency unknown; Ctrl-C and other stops leave none.
One run at a time holds a ledger, under any name (its lock, LEDGER.lock beside its real path, names
the holder; a ledger with hard links is refused): a second run on it exits 2 before any request. A
lock left by a crashed run on this host is taken over; one from another host is named, with how to
remove it.

Shards: --shard I/N takes tasks I, I+N, I+2N, ... (1-based; every job checks the whole file, and a
rerun of a shard gets the same lines). --shard auto reads the CI engine's variables: GitLab
CI_NODE_INDEX/CI_NODE_TOTAL, CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL, Buildkite
BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX
(with --shard-total N or AGENTCTL_SHARD_TOTAL), AGENTCTL_SHARD=I/N (as --shard I/N, from 1), or
AGENTCTL_SHARD_INDEX counted from 0 with AGENTCTL_SHARD_TOTAL (GitHub Actions: \${{ strategy.job-index }}
and \${{ strategy.job-total }}). \`agentctl tasks batch-report\` joins the shards.

Rate limits: a 429 pauses every worker for its Retry-After; --max-rate N starts at most N requests
a second. With --follow each task is polled by its own age (soon after it is created, then less
often, at least every --interval), so the polls of a long batch spread out; stderr states the plan.
--webhook-listen follows through completion webhooks instead: one listener (127.0.0.1, a random
secret path; --public-url for a tunnel) is registered as each task's webhook, a webhook that comes
costs one request for the result, and only a task whose webhook has not come is polled, every
--fallback-interval (60 s). Tasks of a previous run are polled as with --follow.
The exit code is that of the worst outcome, worst first: 3, 8, 1, 4, 5, 6, then 0.`;

export function parseBatchOptions(input: ParseInput): BatchOptions {
  const shardFlag = input.string('shard');
  const shard = shardFlag?.trim() === 'auto' ? 'auto' : parseShard(shardFlag);
  const totalFlag = input.string('shardTotal');
  if (totalFlag !== undefined && shard !== 'auto') throw new UsageError('--shard-total goes with --shard auto', 'with --shard I/N the N is the total');
  const shardTotal = totalFlag === undefined ? undefined : parseIntegerFlag(totalFlag, '--shard-total', 1, MAX_SHARDS);
  const maxRate = input.string('maxRate');
  const listen = parseListen(input);
  const file = input.arg(0) ?? '-';
  const ledger = input.string('ledger') ?? (shard === 'auto' ? undefined : defaultLedger(file, shard));
  return {
    file,
    concurrency: parseIntegerFlag(input.string('concurrency') ?? String(DEFAULT_CONCURRENCY), '--concurrency', 1, MAX_CONCURRENCY),
    follow: input.flag('follow') || listen !== undefined,
    intervalMs: parseSecondsFlag(input.string('interval') ?? '2', '--interval', 0.05) * 1000,
    maxOutageMs: parseSecondsFlag(input.string('maxOutage') ?? '300', '--max-outage', 1) * 1000,
    ledger,
    shard,
    shardTotal,
    retryUnknown: input.flag('retryUnknown'),
    maxRate: maxRate === undefined ? undefined : parseIntegerFlag(maxRate, '--max-rate', 1, 100_000),
    listen,
  };
}

function parseListen(input: ParseInput): BatchOptions['listen'] {
  if (!input.flag('webhookListen')) {
    if (LISTEN_FLAGS.some((name) => input.given(name))) throw new UsageError('--public-url, --listen-host, --listen-port and --fallback-interval go with --webhook-listen');
    return undefined;
  }
  const publicUrl = input.string('publicUrl');
  return {
    publicUrl: publicUrl === undefined ? undefined : checkHttpUrl(publicUrl, '--public-url').toString(),
    host: input.string('listenHost') ?? '127.0.0.1',
    port: parseIntegerFlag(input.string('listenPort') ?? '0', '--listen-port', 0, 65535),
    fallbackMs: parseSecondsFlag(input.string('fallbackInterval') ?? String(DEFAULT_BATCH_FALLBACK_SECONDS), '--fallback-interval', 0.05) * 1000,
  };
}

export const command = defineCommand({
  name: 'run-batch',
  summary: 'create many tasks from a JSON Lines file (or plain prompts, one a line), resumably; --follow waits for all',
  args: [{ name: '[file]', description: 'the tasks, one a line (- or nothing reads stdin)' }],
  options: [
    { flags: '--concurrency <n>', description: 'requests in flight at once, 1..64', default: String(DEFAULT_CONCURRENCY) },
    { flags: '--follow', description: 'wait for every task; print one JSON line per task as it ends' },
    { flags: '--interval <sec>', description: 'with --follow: longest time between polls, seconds', default: '2' },
    { flags: '--max-outage <sec>', description: 'with --follow: give up when the service is unreachable this long', default: '300' },
    { flags: '--ledger <path>', description: "where each line's task id is recorded (default FILE.ledger beside the input)" },
    { flags: '--shard <i/n|auto>', description: 'take every n-th task from the i-th (1-based), to split one file across CI jobs; auto reads the CI engine\'s variables' },
    { flags: '--shard-total <n>', description: 'with --shard auto: the number of shards where the engine does not say (Kubernetes Indexed Jobs)' },
    { flags: '--max-rate <n>', description: 'start at most n requests a second, creates and polls together (default: only --concurrency bounds them)' },
    { flags: '--retry-unknown', description: 'send again the lines whose create outcome is unknown (check them first)' },
    { flags: '--webhook-listen', description: 'follow through completion webhooks: one listener for the batch, polling only tasks whose webhook does not come (implies --follow)' },
    { flags: '--public-url <url>', description: "with --webhook-listen: public base URL (e.g. a tunnel) the service calls; the listener's secret path is appended" },
    { flags: '--listen-host <host>', description: 'with --webhook-listen: address to listen on (default 127.0.0.1)' },
    { flags: '--listen-port <port>', description: 'with --webhook-listen: port to listen on (default 0 = any free port)' },
    { flags: '--fallback-interval <sec>', description: `with --webhook-listen: poll a task whose webhook has not come this often (default ${DEFAULT_BATCH_FALLBACK_SECONDS})` },
  ],
  notes: BATCH_HELP,
  exitCodes: {
    0: 'every task created (with --follow: every task completed)',
    1: 'a line rejected, of unknown outcome, or answered with a service error',
    2: 'bad input or a ledger in use: nothing sent',
    3: 'authentication failed: the run stops',
    4: 'a task not found',
    5: 'with --follow: a task ended failed',
    6: 'with --follow: a task ended cancelled',
    8: 'the service unreachable after retries: the run stops',
    130: 'interrupted (Ctrl-C): run it again to resume',
  },
  examples: [
    'agentctl tasks run-batch tasks.jsonl --concurrency 8 --follow > results.jsonl',
    'agentctl tasks run-batch prompts.txt --shard auto --follow > results.jsonl',
    'agentctl tasks run-batch prompts.txt --shard 2/4 --follow',
    'printf "Check example.com\\nCheck example.org\\n" | agentctl tasks run-batch - --follow | jq -r .status',
  ],
  parse: parseBatchOptions,
  run: runBatch,
});

/**
 * Where a batch records its ids unless --ledger says: beside the input file (none for stdin). One
 * shard of one (a CI job that is not parallel) is the whole file: the same ledger as a plain run, or
 * switching between them would create every line twice.
 */
function defaultLedger(file: string, shard: Shard | undefined): string | undefined {
  return file === '-' ? undefined : `${file}${shard && shard.count > 1 ? `.shard-${shard.index}-of-${shard.count}` : ''}.ledger`;
}

/**
 * The command that picks a stopped batch up: the same input, ledger, service and options that change
 * what is sent. A rerun that read another ledger (or none) would create every task again.
 */
function resumeCommand(options: ResolvedOptions, flags: GlobalFlags): string {
  const parts = ['agentctl tasks run-batch', shellWord(options.file)];
  if (options.shard) parts.push(`--shard ${options.shard.index}/${options.shard.count}`);
  if (options.ledger !== undefined && options.ledger !== defaultLedger(options.file, options.shard)) parts.push(`--ledger ${shellWord(options.ledger)}`);
  if (options.follow) parts.push('--follow');
  if (options.retryUnknown) parts.push('--retry-unknown');
  if (options.concurrency !== DEFAULT_CONCURRENCY) parts.push(`--concurrency ${options.concurrency}`);
  if (options.maxRate !== undefined) parts.push(`--max-rate ${options.maxRate}`);
  if (options.listen) parts.push('--webhook-listen'); // a new listener: the tasks of the stopped run are polled
  if (options.listen?.publicUrl !== undefined) parts.push(`--public-url ${shellWord(options.listen.publicUrl)}`);
  // The service it ran against (never the key: argv is visible to other users).
  if (flags.profile !== undefined) parts.push(`--profile ${shellWord(flags.profile)}`);
  if (flags.baseUrl !== undefined) parts.push(`--base-url ${shellWord(flags.baseUrl)}`);
  return parts.join(' ');
}

async function runBatch(given: BatchOptions, ctx: Context): Promise<number> {
  const options = resolveShard(given, ctx);
  if (options.file === '-' && ctx.terminal.stdinIsTTY) {
    throw new UsageError('no tasks: give a FILE, or pipe them in', 'agentctl tasks run-batch tasks.jsonl, or: cat prompts.txt | agentctl tasks run-batch -');
  }
  const source = await openSource(options.file, () => ctx.readStdin());
  // This run ends itself on Ctrl-C from here on, so its lock is let go (and checking a long input stops).
  ctx.handlesInterrupt = true;
  // Held until the run ends, however it ends: a second run on this ledger would create every task again.
  let ledger: Ledger;
  try {
    ledger = await Ledger.open(options.ledger, { process: ctx.io.process, clock: ctx.clock, signal: ctx.signal, say: (message) => ctx.out.info(message) });
  } catch (error) {
    if (ctx.signal.aborted) return interruptedBeforeSending(ctx); // while watching a lock
    throw error;
  }
  try {
    return await runLocked(options, ctx, source, ledger, resumeCommand(options, ctx.flags));
  } catch (error) {
    if (error instanceof InterruptedCheck) return interruptedBeforeSending(ctx);
    throw error;
  } finally {
    ledger.unlock();
  }
}

function interruptedBeforeSending(ctx: Context): number {
  ctx.out.info('Interrupted before anything was sent.');
  return ExitCode.interrupted;
}

/** `--shard auto` read from the CI engine's variables (said on stderr), and the ledger that goes with the shard. */
function resolveShard(options: BatchOptions, ctx: Context): ResolvedOptions {
  if (options.shard !== 'auto') return { ...options, shard: options.shard };
  const { shard, source } = detectShard(ctx.env, options.shardTotal);
  ctx.out.info(`Shard ${shard.index}/${shard.count}, from ${source}.`);
  return { ...options, shard, ledger: options.ledger ?? defaultLedger(options.file, shard) };
}
