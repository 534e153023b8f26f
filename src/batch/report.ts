// What `tasks run-batch`, `tasks wait ID...` and `tasks batch-report` print: one JSON line per task
// on stdout as its outcome is known, a live progress line on stderr when that is a terminal, and a
// summary on stderr.
import type { Clock } from '../contract/clock.js';
import { oneLine } from '../contract/text.js';
import { ExitCode } from '../errors.js';
import { sanitizeForTerminal, sanitizeLine } from '../output/sanitize.js';
import type { OutputSettings } from '../output/settings.js';
import type { Terminal, TerminalDecisions } from '../output/terminal.js';

/**
 * What a report reads of the run (a command's Context has all of it): the clock, Ctrl-C, the
 * terminal's decisions, the output settings and the two streams; not the command line's context.
 */
export interface ReportDeps {
  clock: Pick<Clock, 'now'>;
  signal: AbortSignal;
  tty: Pick<TerminalDecisions, 'progress'> & { facts: Pick<Terminal, 'stdoutIsTTY'> };
  out: { settings: Pick<OutputSettings, 'quiet' | 'jq' | 'fields'>; jsonLine(value: unknown): void };
  io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } };
}

/** One line of stdout: the same keys every time, null where there is nothing. */
export interface TaskOutcome {
  line?: number;
  key?: string | null;
  id: string | null;
  /** completed/failed/cancelled (waited), created (not waited), rejected (not created), unknown, error. */
  status: string;
  result: unknown;
  error: string | null;
}

/** Worst first: the exit code of a run is that of its worst outcome. */
const SEVERITY: number[] = [ExitCode.auth, ExitCode.network, ExitCode.serviceError, ExitCode.notFound, ExitCode.waitTimedOut, ExitCode.taskFailed, ExitCode.taskCancelled, ExitCode.ok];

export function worseCode(a: number, b: number): number {
  const rank = (code: number) => (SEVERITY.includes(code) ? SEVERITY.indexOf(code) : 0);
  return rank(a) <= rank(b) ? a : b;
}

const MAX_LISTED = 10;
/** Outcomes listed by line in the summary: what needs a look before anything is sent again. */
const NOTABLE = ['unknown', 'rejected', 'error', 'missing', 'duplicated'];
/** Piped output waits at most this long, or until this much is pending, before it is written. */
const FLUSH_MS = 20;
const FLUSH_BYTES = 64 * 1024;

export class BatchReport {
  readonly counts = new Map<string, number>();
  code: number = ExitCode.ok;
  /** Tasks created and not yet ended (while following). */
  running = 0;
  private done = 0;
  private readonly started: number;
  private lastDraw = 0;
  private drawn = false;
  private readonly progress: boolean;
  private readonly notable: string[] = [];
  private pending = '';
  private flushSoon?: NodeJS.Timeout;

  constructor(
    private readonly ctx: ReportDeps,
    /** Outcomes expected in all (tasks in this job). */
    readonly total: number,
    private readonly what = 'tasks',
  ) {
    this.started = ctx.clock.now();
    // Ctrl-C ends the run at once: the lines still waiting for their write go out first.
    ctx.signal.addEventListener('abort', () => this.flush(), { once: true });
    this.progress = ctx.tty.progress && !ctx.out.settings.quiet;
  }

  /** A task's final word for this run: printed, counted, and folded into the exit code. */
  emit(outcome: TaskOutcome, code: number): void {
    this.clearProgress();
    const { jq, fields } = this.ctx.out.settings;
    if (jq !== undefined || fields !== undefined) {
      this.ctx.out.jsonLine(outcome); // --jq / --fields apply to each line
    } else {
      // Piped, lines go out together, at most FLUSH_MS late: a write per line would cost a batch
      // more than its requests.
      // On a terminal, a service's error text in it gets C1 and bidirectional controls escaped (still JSON).
      const line = `${JSON.stringify(outcome)}\n`;
      this.pending += this.ctx.tty.facts.stdoutIsTTY ? sanitizeForTerminal(line) : line;
      if (this.ctx.tty.facts.stdoutIsTTY || this.pending.length > FLUSH_BYTES) this.flush(); // a person reads it, between progress redraws
      else this.flushSoon ??= setTimeout(() => this.flush(), FLUSH_MS);
    }
    this.counts.set(outcome.status, (this.counts.get(outcome.status) ?? 0) + 1);
    this.code = worseCode(this.code, code);
    this.done++;
    if (NOTABLE.includes(outcome.status)) {
      const where = outcome.line === undefined ? (outcome.id ?? '') : `line ${outcome.line}`;
      if (this.notable.length < MAX_LISTED) this.notable.push(`  ${shown(where)}: ${shown(outcome.status)}: ${shown(outcome.error ?? '')}`);
    }
    this.draw();
  }

  /** Writes the lines not yet written. */
  flush(): void {
    if (this.flushSoon) clearTimeout(this.flushSoon);
    this.flushSoon = undefined;
    if (this.pending !== '') this.ctx.io.stdout.write(this.pending);
    this.pending = '';
  }

  /** Redraws the progress line, at most ten times a second. */
  draw(force = false): void {
    if (!this.progress) return;
    const now = this.ctx.clock.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = this.done / seconds;
    const left = this.total - this.done;
    const eta = rate > 0 && left > 0 ? ` · ETA ${formatSeconds(left / rate)}` : '';
    const counts = [...this.counts].map(([status, count]) => `${count} ${shown(status)}`).join(', ');
    const running = this.running > 0 ? ` · ${this.running} running` : '';
    this.ctx.io.stderr.write(`\r\x1b[K${this.done}/${this.total} ${this.what}${counts ? ` (${counts})` : ''}${running} · ${rate.toFixed(1)}/s${eta}`);
    this.drawn = true;
  }

  private clearProgress(): void {
    if (this.drawn && this.ctx.tty.facts.stdoutIsTTY) {
      this.ctx.io.stderr.write('\r\x1b[K');
      this.drawn = false;
    }
  }

  /** The closing lines on stderr: counts, time, and the lines that need a look. */
  summary(extra: string[] = []): void {
    this.flush();
    if (this.drawn) this.ctx.io.stderr.write('\r\x1b[K');
    this.drawn = false;
    const seconds = (this.ctx.clock.now() - this.started) / 1000;
    const counts = [...this.counts].map(([status, count]) => `${count} ${shown(status)}`).join(', ') || 'nothing done';
    const lines = [`${this.done}/${this.total} ${this.what}: ${counts} in ${formatSeconds(seconds)}`, ...this.notable];
    const unlisted = [...this.counts].filter(([status]) => NOTABLE.includes(status)).reduce((sum, [, n]) => sum + n, 0) - this.notable.length;
    if (unlisted > 0) lines.push(`  ... and ${unlisted} more (see stdout)`);
    lines.push(...extra);
    if (this.code !== ExitCode.ok || !this.ctx.out.settings.quiet) this.ctx.io.stderr.write(`${lines.join('\n')}\n`);
  }
}

/**
 * Text of a line's outcome as the summary shows it: one line, controls escaped. It is the service's
 * (an error detail) or a report file's (statuses, keys, ids read back by batch-report), and the
 * summary goes to stderr as it is, where a CI log would take a line break in it for a workflow command.
 */
const shown = (text: string) => sanitizeLine(oneLine(text));

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m${Math.round(seconds % 60)}s` : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}
