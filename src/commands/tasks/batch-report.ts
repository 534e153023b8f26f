// What `tasks run-batch` and `tasks wait ID...` print: one JSON line per task on stdout as its
// outcome is known, a live progress line on stderr when that is a terminal, and a summary on stderr.
// And `tasks batch-report`: the same report for a batch run as shards, joined from their outputs.
import { appendFile, writeFile } from 'node:fs/promises';
import type { Context } from '../../cli/context.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { oneLine } from '../../contract/text.js';
import { LIMITS } from '../../contract/validate.js';
import { ExitCode, UsageError } from '../../errors.js';
import { sanitizeLine } from '../../output/sanitize.js';
import { batchLines, openSource } from '../../batch/input.js';
import { BatchMerge, githubAnnotation, isFailure, junitCase, junitDocument, markdownSummary, parseRecord, statusCode, type LineReport } from '../../batch/merge.js';

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
    private readonly ctx: Context,
    /** Outcomes expected in all (tasks in this job). */
    readonly total: number,
    private readonly what = 'tasks',
  ) {
    this.started = ctx.clock.now();
    // Ctrl-C ends the run at once: the lines still waiting for their write go out first.
    ctx.signal.addEventListener('abort', () => this.flush(), { once: true });
    const env = ctx.env;
    const ci = Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
    this.progress = ctx.terminal.stderrIsTTY && !ctx.out.settings.quiet && !ci && env.TERM !== 'dumb';
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
      this.pending += `${JSON.stringify(outcome)}\n`;
      if (this.ctx.terminal.stdoutIsTTY || this.pending.length > FLUSH_BYTES) this.flush(); // a person reads it, between progress redraws
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
    if (this.drawn && this.ctx.terminal.stdoutIsTTY) {
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

// ---- tasks batch-report ----

interface ReportOptions {
  files: string[];
  input?: string;
  junit?: string;
  annotations?: 'github' | 'none';
}

/** Problem lines shown in the step summary, and `::error` annotations (GitHub shows 10 a step). */
const MAX_SUMMARY_ROWS = 20;
const MAX_ANNOTATIONS = 10;

export const command = defineCommand({
  name: 'batch-report',
  summary: "one report for a batch run as shards: joins their JSON lines and/or ledgers, each line once",
  args: [{ name: '<outputs...>', description: "the shards' outputs (run-batch's stdout) and/or ledgers" }],
  options: [
    { flags: '--input <file>', description: 'the tasks file the shards ran: every task line is then reported, a line no shard reported as missing' },
    { flags: '--junit <file>', description: 'also write JUnit XML: one testcase per line, failed/unknown/missing lines as failures' },
    { flags: '--annotations <kind>', choices: ['github', 'none'], description: 'github: ::error annotations and a step summary (default when GITHUB_ACTIONS=true); none' },
  ],
  notes: `Output: one JSON line per line of the batch, in line order, as run-batch prints them: the most
final word of any output or ledger about the line wins (a shard rerun reports its lines again).
"missing": no input names the line (with --input); "duplicated": the line has more than one task
(created twice), with "ids". A summary goes to stderr.

Under GitHub Actions (or --annotations github): a Markdown summary is appended to
$GITHUB_STEP_SUMMARY and each line that did not end well gets an ::error annotation (the first 10).
What the lines say shows as code in the summary, and as one line without control characters in
annotations; a summary or JUnit file that cannot be written is warned about (the exit code stays).

Exit codes: the worst outcome: 0 all completed (or created), 5 failed, 6 cancelled, 1 rejected,
unknown, missing or duplicated; 2 an input that cannot be read.`,
  examples: [
    'agentctl tasks batch-report shard-*/results.jsonl --input tasks.jsonl --junit batch.xml',
    'agentctl tasks batch-report tasks.jsonl.shard-*.ledger --input tasks.jsonl',
  ],
  parse: (input: ParseInput): ReportOptions => {
    const annotations = input.string('annotations') as ReportOptions['annotations']; // one of its choices
    const files = input.args(0);
    if (files.length === 0) throw new UsageError("give the shards' outputs or ledgers", 'agentctl tasks batch-report shard-1.jsonl shard-2.jsonl --input tasks.jsonl');
    return { files, input: input.string('input'), junit: input.string('junit'), annotations };
  },
  run: batchReport,
});

async function batchReport(options: ReportOptions, ctx: Context): Promise<number> {
  const merge = new BatchMerge();
  for (const file of options.files) await readShardFile(file, merge, ctx);
  let expected: Array<{ line: number; key?: string }> | undefined;
  if (options.input !== undefined) {
    expected = [];
    for await (const task of batchLines(await openSource(options.input, () => ctx.readStdin()), undefined)) expected.push({ line: task.line, key: task.key });
  } else {
    ctx.out.info('Without --input FILE a line no shard reported cannot be named as missing.');
  }

  const lines = merge.report(expected);
  const report = new BatchReport(ctx, expected?.length ?? merge.size, 'lines');
  const github = (options.annotations ?? (ctx.env.GITHUB_ACTIONS === 'true' ? 'github' : 'none')) === 'github';
  const junit: string[] = [];
  const problems: LineReport[] = [];
  let failures = 0;
  for (const line of lines) {
    report.emit(line, statusCode(line.status));
    if (options.junit !== undefined) junit.push(junitCase(line));
    if (!isFailure(line.status)) continue;
    failures++;
    if (problems.length < MAX_SUMMARY_ROWS) problems.push(line);
    if (github && failures <= MAX_ANNOTATIONS) ctx.io.stderr.write(githubAnnotation(line, options.input));
  }
  report.flush();
  if (options.junit !== undefined) await writeReport(ctx, options.junit, junitDocument(junit.join(''), report.total, failures), writeFile);
  const summaryFile = ctx.env.GITHUB_STEP_SUMMARY;
  if (github && summaryFile) await writeReport(ctx, summaryFile, markdownSummary(report.counts, report.total, problems, failures - problems.length), appendFile);
  const more = github && failures > MAX_ANNOTATIONS ? [`(${failures - MAX_ANNOTATIONS} more failed lines without an annotation: see the report)`] : [];
  report.summary(more);
  return report.code;
}

/**
 * The longest line of a shard's output (characters): a task's result is at most what a response may
 * be (64 MB by default), twice over for what JSON escapes in it.
 */
const MAX_REPORT_LINE = 2 * LIMITS.bodyMb * 1024 * 1024;

/** Reads one shard's output or ledger into the merge; a record torn by a killed shard (its last line) is left out. */
async function readShardFile(file: string, merge: BatchMerge, ctx: Context): Promise<void> {
  const source = await openSource(file, () => ctx.readStdin(), MAX_REPORT_LINE);
  let number = 0;
  let torn: string | undefined;
  for await (const texts of source.lines()) {
    for (const text of texts) {
      number++;
      if (torn !== undefined) throw new UsageError(torn);
      let record: ReturnType<typeof parseRecord>;
      try {
        record = parseRecord(text, `${file}:${number}`);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        torn = `${file}:${number}: not JSON: ${error.message}`;
        continue;
      }
      if (record && 'outcome' in record) merge.addOutcome(record.outcome);
      else if (record) merge.addLedgerRecord(record.entry);
    }
  }
  if (torn !== undefined) ctx.out.warn(`${file}: its last line is cut off (the shard was stopped while writing it); the rest is read.`);
}

/**
 * Writes the JUnit file or the step summary; one that cannot be written is warned about, and the
 * exit code stays the batch's: a CI step would else fail (or pass) for the report, not for its tasks.
 */
async function writeReport(ctx: Context, path: string, text: string, write: (path: string, text: string) => Promise<void>): Promise<void> {
  try {
    await write(path, text);
  } catch (error) {
    ctx.out.warn(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; the report on stdout is whole, the exit code is the batch's`);
  }
}
