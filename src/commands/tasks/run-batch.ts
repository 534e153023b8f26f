// `tasks run-batch FILE`: many tasks as one job. Every line is checked first; then N workers create
// the tasks through one RateGate (a 429 pauses them all), each id is written to the ledger the
// moment it exists, and with --follow one poller waits for all of them.
import { ApiError, NetworkError } from '../../api/errors.js';
import { RateGate } from '../../api/rate-gate.js';
import { DEFAULT_RETRY_POLICY, backoffDelayMs } from '../../api/retry.js';
import { FIRST_POLL_DELAY_MS } from '../../api/wait.js';
import { TaskPoller } from '../../api/task-poller.js';
import { tasks, type TaskScope } from '../../api/tasks.js';
import type { Context, GlobalFlags } from '../../cli/context.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { checkHttpUrl, isUuid, parseIntegerFlag, parseSecondsFlag } from '../../contract/validate.js';
import { randomPath, startListener } from '../../webhooks/listener.js';
import { ExitCode, UsageError, isExplainedError } from '../../errors.js';
import { shellWord } from '../../output/shell.js';
import { MAX_SHARDS, batchLines, checkInput, openSource, parseShard, type BatchLine, type BatchSource, type Shard } from '../../batch/input.js';
import { BatchIds } from '../../batch/ids.js';
import { Ledger } from '../../batch/ledger.js';
import { ServiceIdentity, checkLedgerService } from '../../batch/service.js';
import { detectShard } from '../../batch/shard.js';
import { BatchReport, type TaskOutcome } from '../../batch/report.js';
import { exitCodeForStatus } from './outcome.js';
import { publicWebhookUrl } from './webhook-wait.js';
import { isLoopbackHost } from '../../contract/url.js';

export interface BatchOptions {
  file: string;
  concurrency: number;
  follow: boolean;
  intervalMs: number;
  maxOutageMs: number;
  /** --ledger PATH, or the default once the shard is known (beside the input; none for stdin). */
  ledger?: string;
  /** `auto` until the run reads it from the CI engine's variables. */
  shard?: Shard | 'auto';
  /** --shard-total: the number of shards where the engine does not say (Kubernetes). */
  shardTotal?: number;
  retryUnknown: boolean;
  /** --max-rate: requests started per second at most, creates and polls together. */
  maxRate?: number;
  /** --webhook-listen: one listener for the whole batch's completion webhooks (implies --follow). */
  listen?: { publicUrl?: string; host: string; port: number; fallbackMs: number };
}

/** With --webhook-listen, a task whose webhook is awaited is polled only this often (a fallback). */
const DEFAULT_BATCH_FALLBACK_SECONDS = 60;
const LISTEN_FLAGS = ['publicUrl', 'listenHost', 'listenPort', 'fallbackInterval'];

/** The options once `--shard auto` is resolved. */
type ResolvedOptions = BatchOptions & { shard?: Shard };

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;
/**
 * Lines under way per create in flight: a line's `sending` record is synced while the creates before
 * it are out. 4: at 32 in flight, 2 measured 0.75x the node:http floor, 3 0.87-0.92x, 4 0.94-0.95x
 * (docs/performance.md). A run killed outright leaves these lines unknown; any other stop takes back
 * the records of lines not sent.
 */
const LINES_PER_SLOT = 4;
/** A batch of this many lines sends through a connection pool, which saves more than it costs to load. */
const POOL_FROM_LINES = 2_000;
/** 429s in a row for one line before it is given up as rejected. */
const MAX_RATE_LIMITED = 20;

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
Exit codes: 0 all created (all completed with --follow); otherwise the worst outcome's code:
3 auth and 8 unreachable (both stop the run), 1 rejected/unknown/service error, 4 not found,
5 failed, 6 cancelled; 2 bad input or a ledger in use (nothing sent); 130 Ctrl-C (rerun to resume).`;

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

/** What --follow will cost the service, said at the start. */
function pollingPlan(options: ResolvedOptions): string {
  const rate = options.maxRate === undefined ? `up to ${options.concurrency} requests in flight` : `at most ${options.maxRate} requests/s and ${options.concurrency} in flight, creates and polls together`;
  const first = Math.min(FIRST_POLL_DELAY_MS, options.intervalMs);
  const spacing = first < options.intervalMs ? `then less often as it runs (from every ${first / 1000}s to every ${options.intervalMs / 1000}s)` : `then every ${first / 1000}s`;
  const hooked = options.listen ? ` Tasks created with this run's webhook are polled only every ${options.listen.fallbackMs / 1000}s until it comes.` : '';
  return `Following: each task is polled once created, ${spacing}; ${rate}.${hooked}`;
}

/** One listener for the batch: each completion webhook pokes its task's poll. */
async function listenForWebhooks(ctx: Context, listen: NonNullable<BatchOptions['listen']>, baseUrl: string, poke: (id: string) => void) {
  const { publicUrl, host, port } = listen;
  const path = randomPath();
  // A tunnel or proxy may pass the public URL's path prefix on, or strip it: accept both.
  const prefixed = publicUrl ? new URL(publicWebhookUrl(publicUrl, path)).pathname : path;
  const listener = await startListener({ host, port, path, extraPaths: [prefixed], onEvent: (event) => poke(event.record.body.id) }).catch((error: unknown) => {
    throw new UsageError(`cannot listen on ${host}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  });
  const url = publicUrl ? publicWebhookUrl(publicUrl, listener.path) : listener.url;
  if (!publicUrl && !isLoopbackHost(new URL(baseUrl).hostname)) {
    ctx.out.warn(`the service at ${new URL(baseUrl).host} probably cannot reach ${listener.url}; pass --public-url (e.g. a tunnel to port ${listener.port}) or every task is polled every ${listen.fallbackMs / 1000}s`);
  }
  ctx.out.info(`Listening for the tasks' webhooks at ${url}.`);
  return { url, close: () => listener.close() };
}

/** What an output line names of its input line. */
type LineRef = Pick<BatchLine, 'line' | 'key'>;
/** A task being followed: kept small (one object, not the line's body), for a batch may follow 100,000 at once. */
interface FollowedTask extends LineRef {
  id: string;
  scope: TaskScope;
}
/** The scope of every line without an agent, shared. */
const NO_SCOPE: TaskScope = Object.freeze({});

type CreateOutcome = { kind: 'created'; id: string } | { kind: 'rejected' | 'unknown'; error: Error & { exitCode?: number } };

/** A connection that was never made: the create did not reach the service and may be sent again. */
function neverSent(error: unknown): boolean {
  return error instanceof NetworkError && !error.mayHaveBeenCarriedOut;
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
    return await runLocked(options, ctx, source, ledger);
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

/** Thrown when Ctrl-C stops the check of the input. */
class InterruptedCheck extends Error {}

/** `--shard auto` read from the CI engine's variables (said on stderr), and the ledger that goes with the shard. */
function resolveShard(options: BatchOptions, ctx: Context): ResolvedOptions {
  if (options.shard !== 'auto') return { ...options, shard: options.shard };
  const { shard, source } = detectShard(ctx.env, options.shardTotal);
  ctx.out.info(`Shard ${shard.index}/${shard.count}, from ${source}.`);
  return { ...options, shard, ledger: options.ledger ?? defaultLedger(options.file, shard) };
}

async function runLocked(options: ResolvedOptions, ctx: Context, source: BatchSource, ledger: Ledger): Promise<number> {
  const total = await checkInput(source, options.shard, ledger, ctx.signal);
  if (ctx.signal.aborted) throw new InterruptedCheck();
  if (options.ledger === undefined) ctx.out.info('Reading tasks from stdin without --ledger PATH: a rerun could not tell what was created.');

  // Retries are this command's own business (every request is sent with retries: 0): a 429 must pause
  // every worker, and a create is repeated only when it cannot have reached the service. Creates are
  // not aborted by Ctrl-C: the ones in flight finish, so their ids reach the ledger.
  // A big batch sends through a pool of connections: less CPU per request, for ~40 ms of loading
  // (src/api/pooled-transport.ts).
  const base = await ctx.client();
  // The ledger's tasks must be this service's: a rerun elsewhere would find none of them.
  await checkLedgerService(ledger, base, ctx.signal);
  const identity = new ServiceIdentity(base.baseUrl);
  const client = total >= POOL_FROM_LINES ? base.withOptions({ connections: options.concurrency }) : base;
  const creator = client.withOptions({ signal: undefined });
  ctx.onClose(() => {
    client.close();
    creator.close();
  });
  const once = { retries: 0 };
  const { clock, signal } = ctx;
  const gate = new RateGate(options.concurrency, clock, signal, options.maxRate);
  if (options.follow) ctx.out.info(pollingPlan(options));
  const report = new BatchReport(ctx, total);
  let halted: Error | undefined;

  /** One line of output, its keys always in the same order. */
  const outcomeOf = (line: LineRef, id: string | null, status: string, result: unknown, error: string | null): TaskOutcome => ({
    line: line.line,
    key: line.key ?? null,
    id,
    status,
    result,
    error,
  });

  const poller = options.follow
    ? new TaskPoller<FollowedTask>({
        gate,
        clock,
        signal,
        maxIntervalMs: options.intervalMs,
        maxOutageMs: options.maxOutageMs,
        fetch: (task) => tasks.result(client, task.scope, task.id, once),
        onEnd: (task, outcome) => {
          report.running--;
          if ('result' in outcome) {
            const { status, result, error_message } = outcome.result;
            report.emit(outcomeOf(task, task.id, status, result ?? null, error_message ?? null), exitCodeForStatus(status));
          } else {
            const code = isExplainedError(outcome.error) ? outcome.error.exitCode : ExitCode.serviceError;
            report.emit(outcomeOf(task, task.id, 'error', null, ctx.redactor.redact(outcome.error.message)), code);
          }
        },
      })
    : undefined;
  const hook = options.listen && poller ? await listenForWebhooks(ctx, options.listen, client.baseUrl, (id) => poller.poke(id)) : undefined;
  const polling = poller?.run();
  // Not awaited until the creates are done: keep a failure from being reported as unhandled meanwhile.
  polling?.catch(() => undefined);

  /** Whether this run registers its listener as the line's webhook (a line may name its own). */
  const hooked = (line: BatchLine) => hook !== undefined && line.body.webhook === undefined;
  /** A line's task, created now (`now`) or reused from the ledger: followed, or reported as it is. */
  const created = (line: BatchLine, id: string, now = false) => {
    if (poller) {
      report.running++;
      // Only what its output line needs: 100,000 tasks may be followed at once.
      poller.add({ id, scope: line.scope.agentId === undefined ? NO_SCOPE : line.scope, line: line.line, key: line.key }, now && hooked(line) ? options.listen?.fallbackMs : undefined);
      report.draw();
    } else {
      report.emit(outcomeOf(line, id, now ? 'created' : 'reused', null, null), ExitCode.ok);
    }
  };

  const create = async (line: BatchLine): Promise<CreateOutcome> => {
    // The line's `sending` record is on disk before its create may go out. It is written while
    // other creates are in flight (the workers take LINES_PER_SLOT lines per create in flight), so a
    // create waits for a free slot, not for a sync. Refused when the run lost its lock to another
    // (checked with each group of records).
    await ledger.beforeSend({ line: line.line, hash: line.hash, state: 'sending' });
    for (let attempt = 0; ; attempt++) {
      /** Whether this attempt's create may have gone out. */
      let sent = false;
      try {
        const id = await gate.run(async () => {
          for (let connect = 0; ; connect++) {
            // A run that stopped (a bad key, the service unreachable, the ledger unwritable or its
            // lock lost) sends nothing more, not even the lines it had recorded.
            const stop = halted ?? ledger.failed ?? ledger.lockLost();
            if (stop) throw stop;
            sent = true;
            try {
              const answer = await tasks.createForId(creator, line.scope, hooked(line) ? { ...line.body, webhook: hook?.url } : line.body, once);
              identity.note(answer);
              return answer.data.id;
            } catch (error) {
              if (neverSent(error) && connect < DEFAULT_RETRY_POLICY.retries && !(error as NetworkError).nothingListens) {
                // No connection was made: tried again in this slot, so the lines behind it (which
                // would fail the same way) wait rather than fail.
                sent = false;
                await clock.sleep(backoffDelayMs(connect, DEFAULT_RETRY_POLICY), signal);
                continue;
              }
              // A bad key, or a service that cannot be reached even after retries: every other line
              // would fail the same way. Said before the slot is let go, so the next line stays home.
              if (neverSent(error) || (error instanceof ApiError && error.exitCode === ExitCode.auth)) halted ??= error as Error;
              throw error;
            }
          }
        });
        return { kind: 'created', id };
      } catch (error) {
        if (!sent) {
          // Ctrl-C or a stop before it went out (every attempt before was refused with a 429):
          // nothing was created, so the record says so and a rerun sends it, not calling it unknown.
          ledger.unsent({ line: line.line, hash: line.hash, state: 'unsent' });
          throw error;
        }
        if (!(error instanceof ApiError || error instanceof NetworkError)) throw error; // a bug
        if (error instanceof ApiError && error.status === 429 && attempt < MAX_RATE_LIMITED) {
          gate.pause(error.retryAfter?.ms ?? backoffDelayMs(attempt, DEFAULT_RETRY_POLICY));
          continue;
        }
        if (neverSent(error) || (error instanceof ApiError && error.status < 500 && error.status !== 408)) return { kind: 'rejected', error };
        return { kind: 'unknown', error };
      }
    }
  };

  const ids = new BatchIds();
  /** A line whose id cannot be followed (not a UUID, or another line's too): unknown, naming why. */
  const unfollowable = (line: BatchLine, id: string, problem: string) => {
    const uuid = isUuid(id); // then given to two lines: said at once, for the other line's outcome is that task's
    if (uuid) ctx.out.warn(`line ${line.line}: ${problem}`);
    report.emit(outcomeOf(line, uuid ? id : null, 'unknown', null, problem), ExitCode.serviceError);
  };

  const handle = async (line: BatchLine): Promise<void> => {
    const previous = ledger.entries.get(line.line);
    if (previous?.state === 'created' && previous.id) {
      const problem = ids.problem(line.line, previous.id);
      return problem ? unfollowable(line, previous.id, problem) : created(line, previous.id);
    }
    if (previous?.state === 'unknown' && !options.retryUnknown) {
      const error = `${previous.error ?? 'the create may or may not have happened'}; check, then rerun with --retry-unknown to send it again`;
      return report.emit(outcomeOf(line, null, 'unknown', null, error), ExitCode.serviceError);
    }
    const outcome = await create(line);
    if (outcome.kind === 'created') {
      const problem = ids.problem(line.line, outcome.id);
      if (problem) {
        ledger.record({ line: line.line, hash: line.hash, state: 'unknown', error: problem, code: ExitCode.serviceError });
        return unfollowable(line, outcome.id, problem);
      }
      ledger.record({ line: line.line, hash: line.hash, state: 'created', id: outcome.id, ...identity.stamp });
      return created(line, outcome.id, true);
    }
    const message = ctx.redactor.redact(outcome.error.message);
    // An unknown outcome is a service error (1), whatever broke: the create may exist (a reset is not 8 here).
    const code = outcome.kind === 'unknown' ? ExitCode.serviceError : (outcome.error.exitCode ?? ExitCode.serviceError);
    ledger.record({ line: line.line, hash: line.hash, state: outcome.kind, error: message, code });
    report.emit(outcomeOf(line, null, outcome.kind, null, message), code);
  };

  const lines = batchLines(source, options.shard, ctx.redactor)[Symbol.asyncIterator]();
  const worker = async () => {
    // A ledger that cannot be written stops the run: a create may go out only once its line is recorded.
    while (!signal.aborted && !halted && !ledger.failed) {
      const next = await lines.next();
      if (next.done) return;
      try {
        await handle(next.value);
      } catch (error) {
        if (signal.aborted || error === ledger.failed || error === halted) return;
        halted ??= error as Error; // the other workers stop taking lines too
        throw error;
      }
    }
  };
  let stopped: Error | undefined;
  let ledgerFailure: Error | undefined;
  try {
    // Every worker ends before anything is said: the creates in flight finish and their ids are kept.
    // More lines under way than creates in flight: the next lines' records are synced meanwhile.
    const workers = await Promise.allSettled(Array.from({ length: options.concurrency * LINES_PER_SLOT }, worker));
    const failed = workers.find((settled) => settled.status === 'rejected');
    if (failed) throw failed.reason;
    if (!ledger.failed) {
      poller?.close();
      await polling;
    }
  } catch (error) {
    if (!signal.aborted) stopped = error as Error;
  } finally {
    poller?.stop();
    await hook?.close();
    void lines.return?.(); // a run that stopped early closes its input file now, not when it is collected
    report.flush(); // every id created is on stdout, whatever happens next
    ledgerFailure = await ledger.close();
  }

  // A ledger that could not be written: a rerun would not know the tasks it lacks.
  if (ledgerFailure) {
    report.summary(ledgerLost(ledger, signal.aborted, resumeCommand(options, ctx.flags)));
    throw ledgerFailure;
  }
  if (stopped) {
    // Gave up (an outage outlasted --max-outage, a bug): what was done is in the ledger; say how to go on.
    report.summary([`Stopped. Rerun the same command to pick up where it stopped (nothing is created twice):`, `  ${resumeCommand(options, ctx.flags)}`]);
    throw stopped;
  }
  if (halted) {
    report.summary();
    throw halted;
  }
  if (signal.aborted) {
    const waiting = report.running > 0 ? ` ${report.running} created task${report.running === 1 ? '' : 's'} keep running.` : '';
    report.summary([`Interrupted.${waiting} Rerun the same command to pick up where it stopped (nothing is created twice):`, `  ${resumeCommand(options, ctx.flags)}`]);
    return ExitCode.interrupted;
  }
  report.summary(options.ledger ? [`Ledger: ${options.ledger}`] : []);
  return report.code;
}

/**
 * What to say when the ledger could not be written: the tasks created that it lacks (on stderr: stdout
 * may be a file on the same full disk), and how to record them, for a rerun would report their lines
 * as unknown, and --retry-unknown would create them again.
 */
function ledgerLost(ledger: Ledger, interrupted: boolean, resume: string): string[] {
  const stopped = `${interrupted ? 'Interrupted' : 'Stopped'}: the ledger ${ledger.path} could not be written.`;
  const { unwritten, unwrittenUnsent } = ledger;
  if (unwritten.length === 0 && unwrittenUnsent.length === 0) return [`${stopped} Every task created is in it: once there is room, rerun the same command:`, `  ${resume}`];
  const records = [...unwritten.map((entry) => ({ line: entry.line, hash: entry.hash, state: 'created', id: entry.id })), ...unwrittenUnsent].map((record) => shellWord(JSON.stringify(record)));
  const said = [stopped];
  if (unwritten.length > 0) {
    said.push(
      `Created, but not in the ledger (${unwritten.length}):`,
      ...unwritten.map((entry) => `  line ${entry.line}: ${entry.id}`),
      'A rerun would report these lines as unknown (do not send them again with --retry-unknown: they exist).',
    );
  }
  if (unwrittenUnsent.length > 0) {
    const lines = unwrittenUnsent.map((entry) => entry.line).join(', ');
    said.push(`Recorded as being sent, but never sent (${unwrittenUnsent.length}): line${unwrittenUnsent.length === 1 ? '' : 's'} ${lines}; the records below let a rerun send them.`);
  }
  return [...said, 'Once there is room, record them, then rerun the same command:', `  printf '%s\\n' ${records.join(' ')} >> ${shellWord(ledger.path ?? '')}`, `  ${resume}`];
}
