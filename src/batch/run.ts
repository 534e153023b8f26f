// The engine of `tasks run-batch`: every line is checked first; then N workers create the tasks
// through one RateGate (a 429 pauses them all), each id is written to the ledger the moment it
// exists, and when following, one poller waits for all of them.
import { ApiError, NetworkError } from '../api/errors.js';
import { RateGate } from '../api/rate-gate.js';
import { DEFAULT_RETRY_POLICY, backoffDelayMs } from '../api/retry.js';
import { FIRST_POLL_DELAY_MS, exitCodeForStatus } from '../api/wait.js';
import { TaskPoller } from '../api/task-poller.js';
import { tasks, type TaskScope } from '../api/tasks.js';
import type { ApiClient } from '../api/client.js';
import type { Redactor } from '../api/redact.js';
import type { Clock } from '../contract/clock.js';
import { isUuid } from '../contract/validate.js';
import { isLoopbackHost } from '../contract/url.js';
import { randomPath, startListener, publicWebhookUrl } from '../webhooks/listener.js';
import { ExitCode, UsageError, isExplainedError } from '../errors.js';
import { shellWord } from '../output/shell.js';
import { batchLines, checkInput, type BatchLine, type BatchSource, type Shard } from './input.js';
import { BatchIds } from './ids.js';
import { Ledger } from './ledger.js';
import { ServiceIdentity, checkLedgerService } from './service.js';
import { BatchReport, type ReportDeps, type TaskOutcome } from './report.js';

/**
 * What a batch reads of the run (a command's Context has all of it, and is what the command
 * passes): the report's needs, plus the API client, notes for the user, the redactor and cleanup.
 */
export interface BatchDeps extends ReportDeps {
  clock: Clock;
  out: ReportDeps['out'] & { info(message: string): void; warn(message: string): void };
  client(): Promise<ApiClient>;
  redactor: Redactor;
  /** Runs when the command ends, however it ends (the clients' sockets). */
  onClose(close: () => unknown): void;
}

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

/** The options once `--shard auto` is resolved. */
export type ResolvedOptions = BatchOptions & { shard?: Shard };

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

/** Thrown when Ctrl-C stops the check of the input. */
export class InterruptedCheck extends Error {}

/** What --follow will cost the service, said at the start. */
function pollingPlan(options: ResolvedOptions): string {
  const rate = options.maxRate === undefined ? `up to ${options.concurrency} requests in flight` : `at most ${options.maxRate} requests/s and ${options.concurrency} in flight, creates and polls together`;
  const first = Math.min(FIRST_POLL_DELAY_MS, options.intervalMs);
  const spacing = first < options.intervalMs ? `then less often as it runs (from every ${first / 1000}s to every ${options.intervalMs / 1000}s)` : `then every ${first / 1000}s`;
  const hooked = options.listen ? ` Tasks created with this run's webhook are polled only every ${options.listen.fallbackMs / 1000}s until it comes.` : '';
  return `Following: each task is polled once created, ${spacing}; ${rate}.${hooked}`;
}

/** One listener for the batch: each completion webhook pokes its task's poll. */
async function listenForWebhooks(ctx: BatchDeps, listen: NonNullable<BatchOptions['listen']>, baseUrl: string, poke: (id: string) => void) {
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

/** A create that made no connection, and may be tried again in its slot (not when nothing listens there: retrying cannot help). */
function mayConnectAgain(error: unknown, connect: number): boolean {
  return neverSent(error) && connect < DEFAULT_RETRY_POLICY.retries && !(error as NetworkError).nothingListens;
}

/** One line of output, its keys always in the same order. */
function outcomeOf(line: LineRef, id: string | null, status: string, result: unknown, error: string | null): TaskOutcome {
  return { line: line.line, key: line.key ?? null, id, status, result, error };
}

/**
 * Runs a batch whose ledger this run holds: checks every line, then sends and (when following)
 * waits. `resume` is the command that picks a stopped run up, said when it stops. Returns the exit
 * code of the worst outcome; throws what stopped the run.
 */
export async function runLocked(options: ResolvedOptions, ctx: BatchDeps, source: BatchSource, ledger: Ledger, resume: string): Promise<number> {
  const total = await checkInput(source, options.shard, ledger, ctx.signal);
  if (ctx.signal.aborted) throw new InterruptedCheck();
  if (options.ledger === undefined) ctx.out.info('Reading tasks from stdin without --ledger PATH: a rerun could not tell what was created.');
  const run = await BatchRun.start(options, ctx, ledger, total);
  const ended = await run.sendAll(source);
  return run.conclude(ended, resume);
}

/** How the sending ended: what stopped it (not Ctrl-C), and a ledger that could not be written. */
interface SendEnd {
  stopped?: Error;
  ledgerFailure?: Error;
}

/** One run of a batch: its clients, rate gate, report, poller and webhook listener, and the lines' fate. */
class BatchRun {
  /** What stops every worker: a bad key, an unreachable service, a bug. */
  private halted: Error | undefined;
  private readonly ids = new BatchIds();
  private readonly poller?: TaskPoller<FollowedTask>;
  private hook?: { url: string; close: () => Promise<void> };

  private constructor(
    private readonly options: ResolvedOptions,
    private readonly ctx: BatchDeps,
    private readonly ledger: Ledger,
    private readonly client: ApiClient,
    private readonly creator: ApiClient,
    private readonly identity: ServiceIdentity,
    private readonly gate: RateGate,
    private readonly report: BatchReport,
  ) {
    this.poller = options.follow ? this.newPoller() : undefined;
  }

  /** The clients (a pool for a big batch), the gate, the report and the listener of a run. */
  static async start(options: ResolvedOptions, ctx: BatchDeps, ledger: Ledger, total: number): Promise<BatchRun> {
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
    const gate = new RateGate(options.concurrency, ctx.clock, ctx.signal, options.maxRate);
    if (options.follow) ctx.out.info(pollingPlan(options));
    const run = new BatchRun(options, ctx, ledger, client, creator, identity, gate, new BatchReport(ctx, total));
    const { poller } = run;
    if (options.listen && poller) run.hook = await listenForWebhooks(ctx, options.listen, client.baseUrl, (id) => poller.poke(id));
    return run;
  }

  private newPoller(): TaskPoller<FollowedTask> {
    const { ctx, options, report, client } = this;
    return new TaskPoller<FollowedTask>({
      gate: this.gate,
      clock: ctx.clock,
      signal: ctx.signal,
      maxIntervalMs: options.intervalMs,
      maxOutageMs: options.maxOutageMs,
      fetch: (task) => tasks.result(client, task.scope, task.id, ONCE),
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
    });
  }

  /** Whether this run registers its listener as the line's webhook (a line may name its own). */
  private hooked(line: BatchLine): boolean {
    return this.hook !== undefined && line.body.webhook === undefined;
  }

  /** A line's task, created now (`now`) or reused from the ledger: followed, or reported as it is. */
  private created(line: BatchLine, id: string, now = false): void {
    const { poller, report } = this;
    if (poller) {
      report.running++;
      // Only what its output line needs: 100,000 tasks may be followed at once.
      poller.add({ id, scope: line.scope.agentId === undefined ? NO_SCOPE : line.scope, line: line.line, key: line.key }, now && this.hooked(line) ? this.options.listen?.fallbackMs : undefined);
      report.draw();
    } else {
      report.emit(outcomeOf(line, id, now ? 'created' : 'reused', null, null), ExitCode.ok);
    }
  }

  /** A line whose id cannot be followed (not a UUID, or another line's too): unknown, naming why. */
  private unfollowable(line: BatchLine, id: string, problem: string): void {
    const uuid = isUuid(id); // then given to two lines: said at once, for the other line's outcome is that task's
    if (uuid) this.ctx.out.warn(`line ${line.line}: ${problem}`);
    this.report.emit(outcomeOf(line, uuid ? id : null, 'unknown', null, problem), ExitCode.serviceError);
  }

  /** A line: reused from the ledger, reported unknown as the ledger says, or created now. */
  private async handle(line: BatchLine): Promise<void> {
    const { ledger, report } = this;
    const previous = ledger.entries.get(line.line);
    if (previous?.state === 'created' && previous.id) {
      const problem = this.ids.problem(line.line, previous.id);
      return problem ? this.unfollowable(line, previous.id, problem) : this.created(line, previous.id);
    }
    if (previous?.state === 'unknown' && !this.options.retryUnknown) {
      const error = `${previous.error ?? 'the create may or may not have happened'}; check, then rerun with --retry-unknown to send it again`;
      return report.emit(outcomeOf(line, null, 'unknown', null, error), ExitCode.serviceError);
    }
    const outcome = await this.create(line);
    if (outcome.kind === 'created') {
      const problem = this.ids.problem(line.line, outcome.id);
      if (problem) {
        ledger.record({ line: line.line, hash: line.hash, state: 'unknown', error: problem, code: ExitCode.serviceError });
        return this.unfollowable(line, outcome.id, problem);
      }
      ledger.record({ line: line.line, hash: line.hash, state: 'created', id: outcome.id, ...this.identity.stamp });
      return this.created(line, outcome.id, true);
    }
    const message = this.ctx.redactor.redact(outcome.error.message);
    // An unknown outcome is a service error (1), whatever broke: the create may exist (a reset is not 8 here).
    const code = outcome.kind === 'unknown' ? ExitCode.serviceError : (outcome.error.exitCode ?? ExitCode.serviceError);
    ledger.record({ line: line.line, hash: line.hash, state: outcome.kind, error: message, code });
    report.emit(outcomeOf(line, null, outcome.kind, null, message), code);
  }

  /** A line's create, its record on disk first; 429s wait and try again, the rest is the line's outcome. */
  private async create(line: BatchLine): Promise<CreateOutcome> {
    const { ledger, gate } = this;
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
            this.throwIfStopped();
            sent = true;
            try {
              const answer = await tasks.createForId(this.creator, line.scope, this.hooked(line) ? { ...line.body, webhook: this.hook?.url } : line.body, ONCE);
              this.identity.note(answer);
              return answer.data.id;
            } catch (error) {
              if (!mayConnectAgain(error, connect)) throw this.haltIfHopeless(error);
              // No connection was made: tried again in this slot, so the lines behind it (which
              // would fail the same way) wait rather than fail.
              sent = false;
              await this.ctx.clock.sleep(backoffDelayMs(connect, DEFAULT_RETRY_POLICY), this.ctx.signal);
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
  }

  /**
   * A run that stopped (a bad key, the service unreachable, the ledger unwritable or its lock lost)
   * sends nothing more, not even the lines it had recorded.
   */
  private throwIfStopped(): void {
    const stop = this.halted ?? this.ledger.failed ?? this.ledger.lockLost();
    if (stop) throw stop;
  }

  /**
   * A create's error, returned to be thrown. A bad key, or a service that cannot be reached even
   * after retries: every other line would fail the same way, so the run halts. Said before the slot
   * is let go, so the next line stays home.
   */
  private haltIfHopeless(error: unknown): unknown {
    if (neverSent(error) || (error instanceof ApiError && error.exitCode === ExitCode.auth)) this.halted ??= error as Error;
    return error;
  }

  /** Takes the next line while the run goes on. */
  private async worker(lines: AsyncIterator<BatchLine>): Promise<void> {
    const { ctx, ledger } = this;
    // A ledger that cannot be written stops the run: a create may go out only once its line is recorded.
    while (!ctx.signal.aborted && !this.halted && !ledger.failed) {
      const next = await lines.next();
      if (next.done) return;
      try {
        await this.handle(next.value);
      } catch (error) {
        if (ctx.signal.aborted || error === ledger.failed || error === this.halted) return;
        this.halted ??= error as Error; // the other workers stop taking lines too
        throw error;
      }
    }
  }

  /** Every line sent (and followed to its end): the ledger closed and every id on stdout, however it ends. */
  async sendAll(source: BatchSource): Promise<SendEnd> {
    const { poller, ledger, report } = this;
    const polling = poller?.run();
    // Not awaited until the creates are done: keep a failure from being reported as unhandled meanwhile.
    polling?.catch(() => undefined);
    const lines = batchLines(source, this.options.shard, this.ctx.redactor)[Symbol.asyncIterator]();
    const ended: SendEnd = {};
    try {
      // Every worker ends before anything is said: the creates in flight finish and their ids are kept.
      // More lines under way than creates in flight: the next lines' records are synced meanwhile.
      const workers = await Promise.allSettled(Array.from({ length: this.options.concurrency * LINES_PER_SLOT }, () => this.worker(lines)));
      const failed = workers.find((settled) => settled.status === 'rejected');
      if (failed) throw failed.reason;
      if (!ledger.failed) {
        poller?.close();
        await polling;
      }
    } catch (error) {
      if (!this.ctx.signal.aborted) ended.stopped = error as Error;
    } finally {
      poller?.stop();
      await this.hook?.close();
      void lines.return?.(); // a run that stopped early closes its input file now, not when it is collected
      report.flush(); // every id created is on stdout, whatever happens next
      ended.ledgerFailure = await ledger.close();
    }
    return ended;
  }

  /** The summary, and the exit code or the error that ends the run. */
  conclude({ stopped, ledgerFailure }: SendEnd, resume: string): number {
    const { report, ledger, options } = this;
    const { signal } = this.ctx;
    // A ledger that could not be written: a rerun would not know the tasks it lacks.
    if (ledgerFailure) {
      report.summary(ledgerLost(ledger, signal.aborted, resume));
      throw ledgerFailure;
    }
    if (stopped) {
      // Gave up (an outage outlasted --max-outage, a bug): what was done is in the ledger; say how to go on.
      report.summary([`Stopped. Rerun the same command to pick up where it stopped (nothing is created twice):`, `  ${resume}`]);
      throw stopped;
    }
    if (this.halted) {
      report.summary();
      throw this.halted;
    }
    if (signal.aborted) {
      const waiting = report.running > 0 ? ` ${report.running} created task${report.running === 1 ? '' : 's'} keep running.` : '';
      report.summary([`Interrupted.${waiting} Rerun the same command to pick up where it stopped (nothing is created twice):`, `  ${resume}`]);
      return ExitCode.interrupted;
    }
    report.summary(options.ledger ? [`Ledger: ${options.ledger}`] : []);
    return report.code;
  }
}

/** Requests of a batch are sent once each: the run does its own retries. */
const ONCE = { retries: 0 };

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
